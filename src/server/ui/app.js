// Placeholder home: asks the server whether it is healthy and shows the answer.
// The session cookie set at launch authenticates same-origin requests.
"use strict";

async function checkHealth() {
  const status = document.getElementById("status");
  try {
    const response = await fetch("/api/health", { credentials: "same-origin" });
    if (response.status === 401) {
      throw new Error("This page was not opened from Studyhall. Open it from the app window or the address it printed.");
    }
    if (!response.ok) throw new Error(`The server answered ${response.status}.`);
    const body = await response.json();
    status.textContent = `Connected · Studyhall ${body.version}`;
    status.className = "status ok";
    document.body.dataset.health = body.ok ? "ok" : "bad";
    document.body.dataset.version = body.version;
  } catch (error) {
    status.textContent = error.message || "Cannot reach the Studyhall server.";
    status.className = "status bad";
    document.body.dataset.health = "error";
  }
}

document.addEventListener("DOMContentLoaded", checkHealth);
