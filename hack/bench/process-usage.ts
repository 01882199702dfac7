// CPU time and peak memory of another process, from Linux's /proc. The parsers are pure.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface ProcessUsage {
  /** utime + stime, seconds. */
  cpuSeconds: number;
  /** VmHWM: the resident set's high-water mark since the process started, bytes. */
  peakRssBytes: number;
  /** VmRSS: the resident set now, bytes. */
  rssBytes: number;
}

/** utime + stime in clock ticks from the text of /proc/<pid>/stat. */
export function parseCpuTicks(statText: string): number {
  // The command name (field 2) is in parentheses and may itself hold spaces or ')'.
  const rest = statText.slice(statText.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state); utime and stime are fields 14 and 15.
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) {
    throw new Error(`no utime/stime in /proc stat line: ${statText.slice(0, 120)}`);
  }
  return utime + stime;
}

/** VmHWM in bytes from the text of /proc/<pid>/status. */
export function parsePeakRss(statusText: string): number {
  return statusKiB(statusText, 'VmHWM') * 1024;
}

/** VmRSS in bytes from the text of /proc/<pid>/status. */
export function parseRss(statusText: string): number {
  return statusKiB(statusText, 'VmRSS') * 1024;
}

function statusKiB(statusText: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB$`, 'm').exec(statusText);
  if (!match?.[1]) throw new Error(`no ${field} line in /proc status`);
  return Number(match[1]);
}

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    } catch {
      ticksPerSecond = 100; // what every Linux on x86-64 and arm64 uses
    }
  }
  return ticksPerSecond;
}

/** The process's usage so far; undefined once it has gone. */
export function readProcessUsage(pid: number): ProcessUsage | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return {
      cpuSeconds: parseCpuTicks(stat) / clockTicks(),
      peakRssBytes: parsePeakRss(status),
      rssBytes: parseRss(status),
    };
  } catch {
    return undefined;
  }
}
