// Lowers the calling thread's CPU priority (Linux niceness is per thread): bulk work yields to the daemon's other threads.
import { readlinkSync } from 'node:fs';
import os from 'node:os';

/**
 * Sets this thread's niceness to `nice` (0–19; higher yields more). Linux only, where `/proc/thread-self` names
 * the thread's id and `setpriority` on that id affects this thread alone; elsewhere, or when refused, it does
 * nothing and says so by returning false. Threads this one starts afterwards inherit it.
 */
export function niceThisThread(nice: number): boolean {
  if (nice === 0 || process.platform !== 'linux') return false;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/')[2]);
    if (!Number.isInteger(tid) || tid <= 0) return false;
    os.setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
