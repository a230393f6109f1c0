/* The start page (/): the pages a token opens, as the server lists them.
 *
 * The token typed here goes in a request header to /api/access, which answers with
 * the token's event and its pages (orchestrator/views/start.py); the page renders
 * that list and decides nothing. A display key is put after its hall displays'
 * addresses, in the fragment the browser never sends (where the server says so); an
 * arbiter's token is handed to the consoles opened from here in this tab only, under
 * the names they keep it by.
 */

import { esc } from "../common/html.js";

const form = document.getElementById("token-form");
const input = document.getElementById("token-input");
const problem = document.getElementById("problem");
const opened = document.getElementById("opened");

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const token = input.value.trim();
  if (!token) return;
  problem.hidden = true;
  let response;
  try {
    response = await fetch("/api/access", {
      headers: { Authorization: `Bearer ${token}` }, cache: "no-store",
    });
  } catch (err) {
    show("The service cannot be reached.");
    return;
  }
  let answer = null;
  try { answer = await response.json(); } catch (err) { answer = null; }
  if (!response.ok) {
    show(typeof answer?.detail === "string" ? answer.detail : `refused (${response.status})`);
    return;
  }
  render(answer, token);
});

function show(reason) {
  opened.hidden = true;
  problem.textContent = reason;
  problem.hidden = false;
}

function render(access, token) {
  if (access.role !== "display") {
    // The consoles keep their token per tab under these names: opened from here, they
    // connect at once.
    sessionStorage.setItem(`arbiter-console:event-token:${access.event.id}`, token);
    for (const page of access.pages) {
      if (page.page === "arbiter-console") {
        const playoff = decodeURIComponent(page.url.split("/").pop());
        sessionStorage.setItem(`arbiter-console:token:${playoff}`, token);
      }
    }
  }
  document.getElementById("who").textContent =
    `${access.event.name}, with ${access.who}:`;
  document.getElementById("links").innerHTML = access.pages.map((page) => {
    const href = page.token_in_fragment
      ? `${page.url}#key=${encodeURIComponent(token)}` : page.url;
    return `<li data-page="${esc(page.page)}"><a href="${esc(href)}">${esc(page.title)}</a>` +
      `<div class="small muted">${esc(page.about)}</div></li>`;
  }).join("");
  input.value = "";
  opened.hidden = false;
}
