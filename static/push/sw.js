// baogame's service worker (served at /sw.js, scope /): shows a Web Push notice and opens its game.
// The payload holds only the game, the decision kinds and their deadlines.
"use strict";

const KINDS = {
  setup_peek: "peek at your cards",
  turn_action: "take your turn",
  after_draw: "place the drawn card",
  end_turn: "end your turn",
  pluck_window: "pluck or pass",
  ability: "resolve an ability",
  macaw_decide: "resolve the macaw",
  shoebill_place: "place the shoebill's card",
  tribute: "pay tribute",
  declare: "declare",
  turn: "take your turn",
};

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (e) {
    data = {};
  }
  const lines = (data.decisions || []).map((d) => {
    const what = KINDS[d.kind] || d.kind;
    return d.deadline ? `${what} by ${new Date(d.deadline).toLocaleString()}` : what;
  });
  event.waitUntil(
    self.registration.showNotification(data.title || "baogame", {
      body: lines.join("\n") || "A decision waits for you.",
      tag: data.game || "baogame",
      data: { url: data.url || "/" },
    })
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(self.clients.openWindow(url));
});
