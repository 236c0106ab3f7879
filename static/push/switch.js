// The profile page's "Notify this browser" switch: registers /sw.js, subscribes with the site's VAPID
// key and stores the subscription. No inline script (Content-Security-Policy).
"use strict";

(function () {
  const button = document.getElementById("push-switch");
  const status = document.getElementById("push-status");
  if (!button) return;

  function say(text) {
    if (status) status.textContent = text;
  }

  function keyBytes(b64url) {
    const b64 = (b64url + "=".repeat((4 - (b64url.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    const raw = atob(b64);
    const out = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    button.disabled = true;
    say("This browser cannot receive push notices.");
    return;
  }

  // A browser whose push service is out of reach never settles subscribe(): say so instead of waiting.
  function withTimeout(promise, seconds, what) {
    return Promise.race([
      promise,
      new Promise((_, reject) => setTimeout(() => reject(new Error(`${what} did not answer`)), seconds * 1000)),
    ]);
  }

  button.addEventListener("click", async () => {
    button.disabled = true;
    say("Asking this browser…");
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") throw new Error(`notifications are ${permission} for this site`);
      const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
      await navigator.serviceWorker.ready;
      const subscription =
        (await registration.pushManager.getSubscription()) ||
        (await withTimeout(
          registration.pushManager.subscribe({
            userVisibleOnly: true,
            applicationServerKey: keyBytes(button.dataset.vapidKey),
          }),
          20,
          "this browser's push service"
        ));
      const answer = await fetch(button.dataset.subscribeUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": button.dataset.csrf },
        body: JSON.stringify(subscription.toJSON()),
      });
      if (!answer.ok) throw new Error((await answer.json()).detail || `HTTP ${answer.status}`);
      say("This browser will be notified.");
      window.location.reload();
    } catch (error) {
      say(`Could not switch notices on: ${error.message || error}`);
      button.disabled = false;
    }
  });
})();
