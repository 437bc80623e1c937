// The client's entry: routes on the path (`/`, `/r/CODE`, `/games/ID`).

import { startPage } from './start.js';
import { roomPage } from './lobby.js';
import { replayPage } from './replay.js';

const root = document.getElementById('app');
const status = document.getElementById('status');
const setStatus = (t) => { status.textContent = t || ''; };

function route() {
  document.querySelector('.modal')?.remove();
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/r\/([^/]+)\/?$/))) {
    roomPage(root, decodeURIComponent(m[1]).toUpperCase(), setStatus);
  } else if ((m = path.match(/^\/games\/([^/]+)\/?$/))) {
    replayPage(root, decodeURIComponent(m[1]));
  } else {
    startPage(root);
  }
}

addEventListener('popstate', route);
route();
