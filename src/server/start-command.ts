// How a server process is started. `npm start` (package.json's "start" script, checked against
// this list by start-command.test.ts), the browser journeys and the benches all run exactly this,
// so that what is tested and measured is the process operators run: the compiled server
// (`npm run build`, scripts/build.ts) under plain node, no TypeScript loader.

/**
 * Node's arguments for the compiled `src/server/main.ts`. `--no-allocation-site-pretenuring`: V8 otherwise
 * learns from a burst of long-lived objects (the migrations of a new database, at start) to
 * allocate objects of the same code paths straight into the old generation, and keeps doing so for
 * the short-lived objects of every later request. A server that had applied migrations then
 * spent about 3.5 times as long per young-generation collection (measured: 7–8 ms against
 * 2–2.5 ms, promoting 1.4 MB each time against 56 KB) and about 30% more CPU per list request
 * than one started on a migrated database; with this flag both behave as the latter.
 * `--max-semi-space-size=64`: a young generation of up to 2 x 64 MB instead of V8's default of
 * 2 x 16 MB. A request's objects die with it; a larger young generation is collected less often
 * for the same survivors, so each list read spends less of its CPU in the collector (bench/api-cpu,
 * alternated runs: app CPU per patient-list read 0.254-0.258 -> 0.236-0.238 ms, per record-list
 * read 0.428-0.461 -> 0.406-0.429 ms), for at most 96 MB more memory under load.
 */
export const SERVER_NODE_ARGS = [
  '--no-allocation-site-pretenuring',
  '--max-semi-space-size=64',
  'dist/server/main.js',
];
