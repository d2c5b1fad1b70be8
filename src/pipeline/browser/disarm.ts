/**
 * Scripts run inside the browser before a page's (or a worker's) own: they
 * take away the ways out that the DevTools `Fetch` domain cannot pause, so
 * every request that remains passes the SSRF guard. Reading a page needs
 * none of them. The render test tries each and counts what arrives.
 * @module
 */

/**
 * For every document, before its scripts (`Page.addScriptToEvaluateOnNewDocument`,
 * which also covers a fresh same-origin iframe's pristine globals):
 * WebSocket handshakes are never paused; shared and service workers are
 * targets of their own that a tab's auto-attach does not reach; a popup is
 * a new tab outside it (Chromium's popup blocker stops those without a user
 * gesture, and there is no user here).
 */
export const PAGE_DISARM = `(() => {
  for (const name of ["WebSocket", "WebSocketStream", "SharedWorker", "WebTransport", "RTCPeerConnection"]) {
    try { delete globalThis[name]; } catch {}
  }
  try {
    Object.defineProperty(Navigator.prototype, "serviceWorker", { get() { return undefined; } });
  } catch {}
  try { globalThis.open = () => null; } catch {}
})();`;

/**
 * For a dedicated worker, evaluated while it is paused at start. Its fetches
 * and imports are paused by the page's own interception (the render test
 * checks it), its WebSockets are not; nor would a worker it starts be
 * paused, since a worker has no auto-attach of its own.
 */
export const WORKER_DISARM = `(() => {
  for (const name of ["WebSocket", "WebSocketStream", "WebTransport", "Worker", "SharedWorker"]) {
    try { delete globalThis[name]; } catch {}
  }
  return true;
})()`;
