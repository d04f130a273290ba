// The dashboard's mount point at `/` (its assets are built into dist/web by build.mjs).
import type { ExtraMount } from './app.js';

export const webMount: ExtraMount = () => {};
