/**
 * The checks Claude Code's Read (and seed 004, which copies it) makes on a path before reading:
 * an extension denylist for binary formats, and a blocklist of device and kernel files that
 * would block or never end. Both decide by name alone, as those tools do; the engine's own
 * content checks (NUL bytes, non-regular files) still run behind them.
 */

/**
 * Formats that are never text. Images and PDFs the engine serves (png, jpg, gif, webp, bmp,
 * tiff, avif, pdf) are not listed: the dialects read them as media. Seed 004 does not give its
 * `hasBinaryExtension` list; this is the family Claude Code's denylist covers.
 */
const BINARY_EXTENSIONS = new Set([
  // archives and packages
  '.zip', '.tar', '.gz', '.tgz', '.bz2', '.tbz2', '.xz', '.txz', '.zst', '.7z', '.rar', '.lz', '.lzma', '.lz4', '.cab',
  '.jar', '.war', '.ear', '.apk', '.aab', '.ipa', '.deb', '.rpm', '.dmg', '.pkg', '.msi', '.iso', '.img', '.whl', '.egg', '.crx', '.xpi', '.vsix',
  // executables, objects and bytecode
  '.exe', '.dll', '.so', '.dylib', '.a', '.lib', '.o', '.obj', '.bin', '.elf', '.com', '.sys', '.ko',
  '.class', '.pyc', '.pyo', '.pyd', '.wasm', '.beam', '.dex', '.node',
  // office documents
  '.doc', '.docx', '.xls', '.xlsx', '.ppt', '.pptx', '.odt', '.ods', '.odp', '.rtf', '.pages', '.numbers', '.key', '.epub', '.mobi',
  // fonts
  '.ttf', '.otf', '.woff', '.woff2', '.eot',
  // audio
  '.mp3', '.wav', '.flac', '.aac', '.ogg', '.oga', '.opus', '.m4a', '.wma', '.aiff', '.aif', '.mid', '.midi',
  // video
  '.mp4', '.m4v', '.mov', '.avi', '.mkv', '.webm', '.wmv', '.flv', '.mpg', '.mpeg', '.3gp',
  // images the engine does not serve, and design files
  '.ico', '.icns', '.heic', '.heif', '.psd', '.ai', '.sketch', '.fig', '.xcf', '.raw', '.cr2', '.nef', '.dng',
  // databases, lockfiles and data blobs
  '.db', '.sqlite', '.sqlite3', '.mdb', '.accdb', '.dbf', '.lockb', '.parquet', '.avro', '.orc', '.feather', '.arrow',
  '.npy', '.npz', '.pkl', '.pickle', '.h5', '.hdf5', '.pt', '.pth', '.onnx', '.safetensors', '.gguf', '.ckpt', '.tflite', '.dat',
]);

/** The path's extension (lowercase, with its dot) when it is a binary format, else null. */
export function binaryExtensionOf(file: string): string | null {
  const base = file.slice(file.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return null;
  const extension = base.slice(dot).toLowerCase();
  return BINARY_EXTENSIONS.has(extension) ? extension : null;
}

const BLOCKED_DEVICES = new Set([
  '/dev/zero', '/dev/random', '/dev/urandom', '/dev/full', '/dev/stdin', '/dev/tty', '/dev/console', '/dev/stdout', '/dev/stderr',
  '/dev/fd/0', '/dev/fd/1', '/dev/fd/2',
]);
const BLOCKED_PROC = /^\/proc\/[^/]+\/(?:fd\/[012]|environ|cmdline|auxv|maps|mem|stat)$/;

/** True for Claude Code's blocklist: devices and kernel files that block or stream forever. */
export function isBlockedDevicePath(absolute: string): boolean {
  return BLOCKED_DEVICES.has(absolute) || BLOCKED_PROC.test(absolute);
}
