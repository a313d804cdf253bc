// CPU time of a process tree, read from /proc (Linux): what a server made of several processes
// (PostgreSQL's postmaster and its backends) spends, for per-request CPU figures in benches.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

interface Stat {
  ppid: number;
  /** utime + stime + cutime + cstime: its own CPU and that of its children it has reaped. */
  ticks: number;
}

function readStat(pid: string): Stat | undefined {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), from field 3 (state) on.
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) };
  } catch {
    return undefined; // gone meanwhile
  }
}

/** Milliseconds of CPU used so far by `rootPid` and every live descendant (and the ones they reaped). */
export function processTreeCpuMs(rootPid: number): number {
  const children = new Map<number, number[]>();
  const ticks = new Map<number, number>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const st = readStat(name);
    if (!st) continue;
    const pid = Number(name);
    ticks.set(pid, st.ticks);
    const siblings = children.get(st.ppid);
    if (siblings) siblings.push(pid);
    else children.set(st.ppid, [pid]);
  }
  let total = 0;
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop()!;
    total += ticks.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return (total * 1000) / clockTicks();
}

/** The postmaster's pid of a running cluster: the first line of its postmaster.pid. */
export function postmasterPid(clusterDir: string): number {
  return Number(fs.readFileSync(`${clusterDir}/postmaster.pid`, 'utf8').split('\n')[0]);
}
