// Imported first by main.tsx. Zod probes for eval with `new Function` on its first parse, which our
// Content-Security-Policy (no unsafe-eval) reports as a violation; `jitless` skips the probe and
// the schemas work the same. Zod keeps its settings on this global (core.js, `__zod_globalConfig`)
// and adopts an object already there, so the setting is made without loading Zod with the entry:
// the pages that parse nothing (landing, sign-in, verify) never download it.
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };
