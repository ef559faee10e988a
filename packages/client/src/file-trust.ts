// Files whose content the client obeys without asking (the spending policy, the wallet): used only when nobody but
// their owner can change them or put them there, and the policy read only when it is a plain, small file. A device (/dev/zero) would be read without
// end, a FIFO would hang the start, and a file someone else can write could raise the limits the person set.
import fs from "node:fs";
import path from "node:path";

/** Why a file was not read, as the end of a sentence that starts with its path. */
export class FileRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "FileRefused";
  }
}

const kib = (bytes: number) => `${bytes / 1024} KiB`;
const octal = (mode: number) => `0${(mode & 0o7777).toString(8)}`;

function kindOf(stat: fs.Stats): string {
  if (stat.isDirectory()) return "a folder";
  if (stat.isFIFO()) return "a FIFO (named pipe)";
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return "a device";
  if (stat.isSocket()) return "a socket";
  return "not a regular file";
}

/**
 * Who besides its owner can write what `stat` describes, in words; undefined when nobody. A group's write bit is
 * allowed only for the person's own primary group (a user-private group, as many systems give each user), and the
 * owner must be the person or root. Windows has no such modes, so there it is undefined.
 */
export function othersCanWrite(stat: fs.Stats): string | undefined {
  const owner = ownedByAnother(stat);
  if (owner || process.platform === "win32") return owner;
  if (stat.mode & 0o002) return `anyone on this machine can write it (mode ${octal(stat.mode)})`;
  if (stat.mode & 0o020 && stat.gid !== process.getgid?.())
    return `the members of group ${stat.gid} can write it (mode ${octal(stat.mode)})`;
  return undefined;
}

/** Who owns what `stat` describes when it is neither the person nor root, in words. */
export function ownedByAnother(stat: fs.Stats): string | undefined {
  if (process.platform === "win32" || typeof process.getuid !== "function") return undefined;
  return stat.uid !== process.getuid() && stat.uid !== 0 ? `another user (uid ${stat.uid}) owns it` : undefined;
}

/** Refuses a folder others can write: they could put a file there, or swap the one there for theirs. */
export function refuseSharedFolder(dir: string, file: string): void {
  const why = othersCanWrite(fs.statSync(dir));
  if (!why) return;
  throw new FileRefused(
    `is in the folder ${dir}, and ${why}, so someone else could put their own file there: make the folder yours alone (chmod go-w ${dir}), or move ${path.basename(file)} to a folder only you can write`,
  );
}

/**
 * The text of `file`, at most `maxBytes` long, when it is a regular file that only its owner (the person, or root)
 * can write, in folders only they can write; a FileRefused saying why and what to do otherwise.
 */
export function readOwnFile(file: string, maxBytes: number): string {
  let fd: number;
  try {
    // Non-blocking, so a FIFO with no writer opens at once (and is refused below) instead of waiting for ever.
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw new FileRefused(`cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new FileRefused(`is ${kindOf(stat)}, not a regular file: it must be a plain JSON file`);
    if (stat.size > maxBytes)
      throw new FileRefused(`is ${stat.size} bytes, more than the ${kib(maxBytes)} allowed: check the path`);
    const why = othersCanWrite(stat);
    if (why) {
      const fix = why.startsWith("another user")
        ? "write your own copy in its place"
        : `make it yours alone (chmod go-w ${file})`;
      throw new FileRefused(`is not yours alone: ${why}, so someone else could change it; ${fix}, or remove it`);
    }
    refuseSharedFolder(path.dirname(file), file);
    // A symbolic link: the folder of the file it leads to counts as well.
    const real = fs.realpathSync(file);
    if (path.dirname(real) !== path.dirname(file)) refuseSharedFolder(path.dirname(real), real);
    return readAtMost(fd, maxBytes).toString("utf8");
  } catch (error) {
    if (error instanceof FileRefused) throw error;
    throw new FileRefused(`cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads to the end, but never more than `maxBytes`: a file that grew after it was measured is refused too. */
function readAtMost(fd: number, maxBytes: number): Buffer {
  const buffer = Buffer.alloc(maxBytes + 1);
  let length = 0;
  while (length <= maxBytes) {
    const n = fs.readSync(fd, buffer, length, buffer.length - length, null);
    if (n === 0) break;
    length += n;
  }
  if (length > maxBytes) throw new FileRefused(`is more than the ${kib(maxBytes)} allowed: check the path`);
  return buffer.subarray(0, length);
}
