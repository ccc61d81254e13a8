/**
 * A small web app as a QA engineer drives it with actions: a login form, a two-step checkout, a search whose results
 * come by XHR, a modal over the page, a button enabled late, an input that re-renders on every key (as a
 * React-controlled one does), a scrollable panel, a link and a button that open a popup, a page that never stops
 * changing, and a page with an iframe and a shadow root. Served by the route site on 127.0.0.1.
 */
import type { FixtureServer, Routes } from '../../fixtures/server.ts';
import { sendPage, startRouteSite } from './route-site.ts';

const LOGIN = `
<form id="login" action="/app/session" method="post">
  <label>User <input id="user" name="user"></label>
  <label>Password <input id="password" name="password" type="password"></label>
  <button id="submit" type="submit">Sign in</button>
</form>`;

const CHECKOUT = `
<section id="step1"><input id="address"><button id="next" onclick="
  document.querySelector('#step1').hidden = true; document.querySelector('#step2').hidden = false;">Next</button></section>
<section id="step2" hidden><p>Address: <span id="shown"></span></p>
  <a id="pay" href="/app/paid">Pay</a></section>
<script>document.querySelector('#address').addEventListener('input', (e) => {
  document.querySelector('#shown').textContent = e.target.value; });</script>`;

const SEARCH = `
<input id="q"><button id="go">Search</button><ul id="results"></ul>
<script>document.querySelector('#go').addEventListener('click', async () => {
  const q = document.querySelector('#q').value;
  const res = await fetch('/app/api/search?q=' + encodeURIComponent(q));
  const items = await res.json();
  document.querySelector('#results').innerHTML = items.map((i) => '<li class="hit">' + i + '</li>').join('');
});</script>`;

const MODAL = `
<button id="open">Open</button><p id="state">closed</p>
<div id="overlay" style="position:fixed;inset:0;background:rgba(0,0,0,.5)">
  <div role="dialog"><button id="close">Accept</button></div></div>
<script>
document.querySelector('#close').onclick = () => document.querySelector('#overlay').remove();
document.querySelector('#open').onclick = () => (document.querySelector('#state').textContent = 'opened');
</script>`;

const LATE = `
<button id="buy" disabled>Buy</button><p id="bought">no</p>
<script>
document.querySelector('#buy').onclick = () => (document.querySelector('#bought').textContent = 'yes');
setTimeout(() => { document.querySelector('#buy').disabled = false; }, Number(new URL(location.href).searchParams.get('ms') ?? 600));
setTimeout(() => { const d = document.createElement('div'); d.id = 'late'; d.textContent = 'arrived'; document.body.append(d); }, 800);
</script>`;

const CONTROLLED = `
<div id="root"></div>
<script>
let value = '';
function render() {
  const root = document.querySelector('#root');
  root.innerHTML = '<input id="name" value="' + value.replace(/"/g, '&quot;') + '"><p id="echo">' + value + '</p>';
  const input = root.querySelector('input');
  input.addEventListener('input', (e) => { value = e.target.value; render(); });
  input.focus(); input.setSelectionRange(value.length, value.length);
}
render();
</script>`;

const PANEL = `
<div id="panel" style="height:100px;overflow:auto"><div style="height:2000px">tall</div></div>
<div style="height:3000px">page</div>`;

const POPUP = `<a id="help" href="/app/help" target="_blank">Help</a><p>Opener</p>
<button id="win" onclick="window.open('/app/help?from=script')">Window</button>`;

// Its DOM changes every 50 ms, so the smart wait of its load runs to the end of the time it is given.
const TICKING = `<p id="tick">0</p><button id="go">Go</button>
<script>setInterval(() => { document.querySelector('#tick').textContent = String(performance.now()); }, 50);</script>`;

const FRAMES = `
<iframe id="inner" src="/app/frame"></iframe>
<div id="host"></div>
<script>document.querySelector('#host').attachShadow({ mode: 'open' }).innerHTML =
  '<button id="shadow-btn">Shadow</button><p id="shadow-out">-</p>';
document.querySelector('#host').shadowRoot.querySelector('#shadow-btn').onclick = () =>
  (document.querySelector('#host').shadowRoot.querySelector('#shadow-out').textContent = 'clicked');</script>`;

const KEYS = `<input id="k"><p id="keys"></p>
<script>document.querySelector('#k').addEventListener('keydown', (e) => {
  document.querySelector('#keys').textContent += (e.ctrlKey ? 'Ctrl+' : '') + (e.shiftKey ? 'Shift+' : '') + e.key + ' ';
});</script>`;

export const QA_ROUTES: Routes = {
  '/app/login': (_req, res) => sendPage(res, 'Login', LOGIN),
  '/app/session': (req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const user = new URLSearchParams(body).get('user') ?? '';
      sendPage(res, 'Dashboard', `<p id="welcome">Welcome ${user}</p>`);
    });
  },
  '/app/checkout': (_req, res) => sendPage(res, 'Checkout', CHECKOUT),
  '/app/paid': (_req, res) => sendPage(res, 'Paid', '<p id="receipt">Thank you</p>'),
  '/app/search': (_req, res) => sendPage(res, 'Search', SEARCH),
  '/app/api/search': (_req, res, ctx) => {
    const q = ctx.url.searchParams.get('q') ?? '';
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify([`${q} one`, `${q} two`, `${q} three`]));
    }, 300);
  },
  '/app/modal': (_req, res) => sendPage(res, 'Modal', MODAL),
  '/app/late': (_req, res) => sendPage(res, 'Late', LATE),
  '/app/controlled': (_req, res) => sendPage(res, 'Controlled', CONTROLLED),
  '/app/panel': (_req, res) => sendPage(res, 'Panel', PANEL),
  '/app/popup': (_req, res) => sendPage(res, 'Popup', POPUP),
  '/app/help': (_req, res) => sendPage(res, 'Help', '<p>Help page</p>'),
  '/app/ticking': (_req, res) => sendPage(res, 'Ticking', TICKING),
  '/app/frames': (_req, res) => sendPage(res, 'Frames', FRAMES),
  '/app/frame': (_req, res) => sendPage(res, 'Inner', '<button id="in-frame">In frame</button>'),
  '/app/keys': (_req, res) => sendPage(res, 'Keys', KEYS),
  // An item page of a batch (bench/actions-batch.ts); `?broken` leaves the search out, so a flow's click on it fails.
  '/app/item/*': (_req, res, ctx) =>
    sendPage(
      res,
      `Item ${ctx.url.pathname.split('/').pop()}`,
      `${ctx.url.searchParams.has('broken') ? '' : SEARCH}<p>Item page</p>`,
    ),
};

export function startQaApp(): Promise<FixtureServer> {
  return startRouteSite(QA_ROUTES);
}
