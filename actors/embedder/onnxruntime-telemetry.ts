// onnxruntime-node's Linux build ships Microsoft's telemetry. Each process that creates a session records events
// (session creation, model loads, run-time performance, system metrics, the OS, a device id kept beside them) in
// Microsoft/DeveloperTools/.onnxruntime/ under $XDG_CACHE_HOME or ~/.cache, tries to send them to
// mobile.events.data.microsoft.com, and leaves an empty /tmp/mat-debug-<pid>.log. A memory vault keeps to itself:
// ORT_DISABLE_TELEMETRY turns it off (an operator's own value is kept). onnxruntime reads it when the process's first
// session is made, from the C library's environment, which only the main thread's process.env writes (a worker
// thread's is a copy of its own). So every main-thread entry that can lead to a session imports this module first:
// the command line, the embedding pools, the providers (and through them the benches and tests that load one
// in-process). test/bin checks a real `memvault index`.
import { isMainThread } from 'node:worker_threads';

if (isMainThread) process.env['ORT_DISABLE_TELEMETRY'] ??= '1';
