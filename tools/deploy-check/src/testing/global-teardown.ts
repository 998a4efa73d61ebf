import { rm } from 'node:fs/promises';

export default async function removeRenderingsFolder(): Promise<void> {
  const folder = process.env.DEPLOY_CHECK_RENDERINGS;
  if (folder) await rm(folder, { recursive: true, force: true });
}
