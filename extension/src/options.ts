// Options: the server URL and API key. Saving asks for access to the server's host only
// (the API's CORS answer for extension origins is enough to work without it).
import { RhizomeApi } from './api.js';
import { ext } from './browser.js';
import { loadSettings, normaliseServerUrl, originPattern, saveSettings } from './settings.js';

const server = document.getElementById('server') as HTMLInputElement;
const key = document.getElementById('key') as HTMLInputElement;
const status = document.getElementById('status')!;

function say(text: string, tone: 'ok' | 'err' | '' = '') {
  status.textContent = text;
  status.className = tone;
}

function read() {
  const serverUrl = normaliseServerUrl(server.value);
  if (!serverUrl) {
    say('The server URL must start with http:// or https://', 'err');
    return null;
  }
  return { serverUrl, apiKey: key.value.trim() };
}

async function check() {
  const s = read();
  if (!s) return;
  say('Checking…');
  const api = new RhizomeApi(s);
  try {
    const h = await api.health();
    await api.whoami();
    say(`Connected to Rhizome ${h.version} (${h.status}); the API key works.`, 'ok');
  } catch (e) {
    say((e as Error).message, 'err');
  }
}

document.getElementById('form')!.addEventListener('submit', (e) => {
  e.preventDefault();
  const s = read();
  if (!s) return;
  server.value = s.serverUrl;
  // Asked first, synchronously inside the click: browsers (Firefox strictly) only show the
  // prompt during the user's gesture, which an earlier await would end.
  const origins = [originPattern(s.serverUrl)];
  const asked = ext.permissions.request({ origins }).catch(() => false);
  void saveSettings(s)
    .then(() => {
      say('Saved.', 'ok');
      return asked;
    })
    .then((granted) => say(granted ? `Saved. Access to ${origins[0]} granted.` : 'Saved. Host access was not granted; the extension still works through CORS.', 'ok'));
});
document.getElementById('check')!.addEventListener('click', () => void check());

void loadSettings().then((s) => {
  server.value = s.serverUrl;
  key.value = s.apiKey;
});
