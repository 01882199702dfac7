// Counts the writes of every user from kube-apiserver's audit log (level Metadata for every
// request in the local control plane), so that the Machines scenario can say who wrote what:
// our controller, Cluster API, machine-api-operator, the bench itself. The parser is pure.
import { open, readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete']);
/** Cheap test before a JSON parse: most lines are reads and watches. */
const WRITE_VERB = /"verb":"(create|update|patch|delete)"/;

export interface AuditWrite {
  user: string;
  verb: string;
  /** `resource[/subresource].group`, e.g. `machines/status.cluster.x-k8s.io`. */
  resource: string;
  name: string;
  code: number;
}

interface AuditLine {
  stage?: string;
  verb?: string;
  user?: { username?: string };
  objectRef?: { resource?: string; subresource?: string; apiGroup?: string; name?: string };
  responseStatus?: { code?: number };
}

/** The write a line of the audit log records, or undefined for any other line. */
export function parseAuditWrite(line: string): AuditWrite | undefined {
  if (!WRITE_VERB.test(line)) return undefined;
  let event: AuditLine;
  try {
    event = JSON.parse(line) as AuditLine;
  } catch {
    return undefined; // the last line, still being written
  }
  const ref = event.objectRef;
  if (event.stage !== 'ResponseComplete' || !WRITE_VERBS.has(event.verb ?? '') || !ref?.resource) {
    return undefined;
  }
  const resource = `${ref.resource}${ref.subresource ? `/${ref.subresource}` : ''}${ref.apiGroup ? `.${ref.apiGroup}` : ''}`;
  return {
    user: event.user?.username ?? '',
    verb: event.verb ?? '',
    resource,
    name: ref.name ?? '',
    code: event.responseStatus?.code ?? 0,
  };
}

/** Writes by `verb resource`, as kube-apiserver's metrics name them elsewhere in the bench. */
export type WritesByKind = Record<string, number>;

/** Follows the audit log from where it ends now; `take()` returns one user's writes since the last take. */
export class AuditWrites {
  private offset = 0;
  private inode: number | undefined;
  private pending = '';
  private decoder = new StringDecoder('utf8');
  private readonly writes = new Map<string, AuditWrite[]>();

  constructor(private readonly path: string) {}

  /** Starts from the log's current end: what happened before is not counted. */
  async start(): Promise<void> {
    const now = await stat(this.path).catch(() => undefined);
    this.offset = now?.size ?? 0;
    this.inode = now?.ino;
  }

  /** Reads what the log gained since the last read, also across a rotation. */
  async read(): Promise<void> {
    const now = await stat(this.path).catch(() => undefined);
    if (!now) return;
    if (this.inode !== undefined && now.ino !== this.inode) {
      // rotated: the file read so far is now the newest audit-<time>.log beside it
      const rotated = await this.newestRotated();
      if (rotated) await this.readFile(rotated, this.offset, Infinity);
      this.offset = 0;
      this.pending = '';
      this.decoder = new StringDecoder('utf8');
    }
    this.inode = now.ino;
    this.offset = await this.readFile(this.path, this.offset, now.size);
  }

  /** One user's writes since the last take of that user (call read() first). */
  take(user: string): AuditWrite[] {
    const taken = this.writes.get(user) ?? [];
    this.writes.set(user, []);
    return taken;
  }

  private async newestRotated(): Promise<string | undefined> {
    const dir = dirname(this.path);
    const stem = basename(this.path, '.log');
    const names = (await readdir(dir))
      .filter((n) => n.startsWith(`${stem}-`) && n.endsWith('.log'))
      .sort();
    const newest = names.at(-1);
    return newest && join(dir, newest);
  }

  private async readFile(path: string, from: number, to: number): Promise<number> {
    const file = await open(path, 'r');
    try {
      const end = Math.min(to, (await file.stat()).size);
      let position = from;
      const chunk = Buffer.alloc(4 * 1024 * 1024);
      while (position < end) {
        const { bytesRead } = await file.read(
          chunk,
          0,
          Math.min(chunk.length, end - position),
          position,
        );
        if (bytesRead === 0) break;
        position += bytesRead;
        this.consume(this.decoder.write(chunk.subarray(0, bytesRead)));
      }
      return position;
    } finally {
      await file.close();
    }
  }

  private consume(text: string): void {
    const lines = (this.pending + text).split('\n');
    this.pending = lines.pop() ?? '';
    for (const line of lines) {
      const write = parseAuditWrite(line);
      if (!write) continue;
      const list = this.writes.get(write.user) ?? [];
      list.push(write);
      this.writes.set(write.user, list);
    }
  }
}

/** `verb resource` → count, e.g. `patch machines/status.cluster.x-k8s.io` → 2000. */
export function countByKind(writes: readonly AuditWrite[]): WritesByKind {
  const counts: WritesByKind = {};
  for (const w of writes) {
    const key = `${w.verb} ${w.resource}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
