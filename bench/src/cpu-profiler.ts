import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

/**
 * Preloaded into every app of the stack (NODE_OPTIONS=--import, since --cpu-prof is not allowed
 * there) when the bench runs with --profile: samples the process's CPU from start to exit and
 * writes a V8 CPU profile to BENCH_PROFILE_DIR/<pid>.cpuprofile. The in-thread inspector answers
 * synchronously, so the profile is written from the exit handler.
 */
const dir = process.env.BENCH_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.start');
  process.once('exit', () => {
    session.post('Profiler.stop', (err, result) => {
      if (!err) writeFileSync(join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
