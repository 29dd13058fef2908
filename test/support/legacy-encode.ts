/**
 * Encodes text in a legacy encoding (GB18030, Shift_JIS, EUC-KR, Windows-1251...), for tests
 * that need such files. Node's `TextEncoder` writes UTF-8 only, so the table is built the other
 * way: every one- and two-byte sequence is decoded with the platform's own `TextDecoder`, and
 * each character maps back to the shortest sequence that decodes to it.
 */
const tables = new Map<string, Map<string, Uint8Array>>();

function tableOf(encoding: string): Map<string, Uint8Array> {
  const known = tables.get(encoding);
  if (known !== undefined) return known;
  const decoder = new TextDecoder(encoding);
  const table = new Map<string, Uint8Array>();
  // A sequence that is not one whole character decodes to U+FFFD, or to more than one character.
  const learn = (bytes: Uint8Array) => {
    const text = decoder.decode(bytes);
    if ([...text].length === 1 && text !== '\uFFFD' && !table.has(text)) table.set(text, bytes);
  };
  for (let a = 0; a < 0x100; a++) learn(Uint8Array.of(a));
  for (let a = 0x81; a < 0x100; a++) for (let b = 0x40; b < 0x100; b++) learn(Uint8Array.of(a, b));
  tables.set(encoding, table);
  return table;
}

/** `text` as bytes in `encoding`; throws on a character the encoding has no short form for. */
export function encodeLegacy(text: string, encoding: string): Buffer {
  const table = tableOf(encoding);
  const parts: Uint8Array[] = [];
  for (const character of text) {
    const bytes = table.get(character);
    if (bytes === undefined) throw new Error(`${encoding} has no one- or two-byte form for ${JSON.stringify(character)}`);
    parts.push(bytes);
  }
  return Buffer.concat(parts);
}
