import fs from 'node:fs';

/**
 * Writes `count` lines, `lineOf(n)` for n = 1..count, each ended by LF, in blocks of a few MB
 * so a 200 MB file needs no 200 MB string.
 */
export function writeGeneratedLines(file: string, count: number, lineOf: (lineNumber: number) => string): void {
  const fd = fs.openSync(file, 'w');
  try {
    let block: string[] = [];
    let blockLength = 0;
    for (let n = 1; n <= count; n++) {
      const line = `${lineOf(n)}\n`;
      block.push(line);
      blockLength += line.length;
      if (blockLength >= 4 * 1024 * 1024 || n === count) {
        fs.writeSync(fd, block.join(''));
        block = [];
        blockLength = 0;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}
