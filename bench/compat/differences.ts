/**
 * The deliberate differences between readpool's dialects and the real tools, case by case. The
 * README's dialect table gives the same list with its reasons; a case the compat run finds
 * different and not matched here fails the run.
 */
interface Difference {
  /** matched against the case id */
  readonly cases: RegExp;
  readonly reason: string;
}

export const DIFFERENCES: readonly Difference[] = [
  // gemini-cli: the seed (the tool with absolute_path/offset/limit) against 0.61.0's function
  { cases: /^gemini-cli dir /, reason: 'the seed answers a directory with INVALID_TOOL_PARAMS; 0.61.0 says target_is_directory' },
  { cases: /^gemini-cli huge\.txt /, reason: "the seed's wording for a file over 20 MB ('Could not read file. File size exceeds...'); 0.61.0 shortened it" },
  { cases: /^gemini-cli lf\.txt \(relative path\)/, reason: "the seed's tool takes an absolute_path and refuses a relative one in its own words" },
  { cases: /^gemini-cli \.\.\/outside\.txt /, reason: "readpool never reads outside its roots (the seed's tool refuses it too; the bare function does not check)" },
  // mcp-filesystem: what the official server lacks
  {
    cases: /^mcp-filesystem (exec|serve) +read_text_file (lf\.txt|crlf\.txt|bom-utf8\.txt|long-line\.txt|lines-2500\.txt|unicode\.txt|notebook\.ipynb) tail=[23]$/,
    reason: 'tail=N gives the last N lines; the original counts the final line break as an empty line and gives N-1',
  },
  { cases: /^mcp-filesystem (exec|serve) +read_text_file utf16(le|be)\.txt/, reason: 'UTF-16 text is decoded; the original returns its raw bytes as UTF-8 (NULs and U+FFFD)' },
  {
    cases: /^mcp-filesystem (exec|serve) +read_(text_file (binary\.bin|binary\.dat|image\.png)$|multiple_files .*binary\.bin)/,
    reason: 'binary files are refused by the 8 KB NUL sniff, naming read_media_file; the original returns their bytes as text',
  },
];

export function documentedDifference(id: string): string | null {
  return DIFFERENCES.find((difference) => difference.cases.test(id))?.reason ?? null;
}
