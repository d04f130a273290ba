// `node --import <this file>`: counts the modules loaded from node_modules (hooks.mjs).
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
