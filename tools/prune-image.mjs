// The build stage's last step, after `npm prune --omit=dev`: removes from node_modules what the
// runtime images must not hold and npm prune keeps:
// - the workspace's own optional dependencies: the npm-fetched Node (the image has its own) and
//   kustomize, tools of the workspace;
// - the packages package-lock.json marks devOptional: dev dependencies that a production package
//   names as an optional peer (typescript, for @nestjs/swagger);
// then the node_modules/.bin links and the scope folders left empty or pointing at nothing.
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));

const removed = [
  ...Object.keys(pkg.optionalDependencies ?? {}).map((name) => `node_modules/${name}`),
  ...Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && entry.devOptional)
    .map(([path]) => path),
];
for (const path of removed) rmSync(path, { recursive: true, force: true });

for (const name of readdirSync('node_modules/.bin')) {
  if (!existsSync(join('node_modules/.bin', name))) rmSync(join('node_modules/.bin', name));
}
for (const name of readdirSync('node_modules')) {
  if (name.startsWith('@') && readdirSync(join('node_modules', name)).length === 0) rmdirSync(join('node_modules', name));
}
