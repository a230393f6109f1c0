/* An independent check, in the browser, of a draw made by the service with commit
 * and reveal (playoff_formats/lots.py): the revealed seed must give the published
 * commitment, SHA-256("playoff-lots/v1/commit\0" + seed), and the outcome must be
 * what the seed draws: uniform integers from HMAC-SHA-256 blocks keyed by the seed
 * over the draw's description.
 *
 * The check gives "verified", "commitment" (the commitment holds; this kind of
 * outcome is not re-drawn here), "mismatch", or "unavailable" (no WebCrypto: the
 * page is neither https nor localhost).
 */

const encoder = new TextEncoder();

function hexBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}

function concat(...arrays) {
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) { out.set(a, at); at += a.length; }
  return out;
}

/** JSON exactly as Python writes it with sort_keys, compact separators, ensure_ascii. */
function pythonJson(value) {
  if (typeof value === "string") {
    return JSON.stringify(value).replace(/[^\x20-\x7e]/g,
      (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
  }
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${pythonJson(k)}:${pythonJson(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Check a commit-reveal record (the view's draw record). */
export async function verifyDraw(draw) {
  if (!(globalThis.crypto && crypto.subtle)) return "unavailable";
  const seed = hexBytes(draw.seed);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256",
    concat(encoder.encode("playoff-lots/v1/commit\u0000"), seed)));
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  if (hex !== draw.commitment) return "mismatch";
  const description = encoder.encode(pythonJson({
    candidates: draw.candidates, contributions: draw.contributions || [],
    kind: draw.kind, purpose: draw.purpose,
  }));
  const key = await crypto.subtle.importKey(
    "raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const words = [];
  let block = 0;
  const next = async () => {
    if (!words.length) {
      const n = new Uint8Array([block >>> 24, (block >>> 16) & 255, (block >>> 8) & 255, block & 255]);
      block += 1;
      const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key,
        concat(encoder.encode("playoff-lots/v1/draw\u0000"), description, n)));
      for (let o = 0; o < 32; o += 8) {
        let w = 0n;
        for (let i = 0; i < 8; i++) w = (w << 8n) | BigInt(mac[o + i]);
        words.push(w);
      }
    }
    return words.shift();
  };
  const uniform = async (n) => {
    const N = BigInt(n);
    const W = 1n << 64n;
    const limit = W - (W % N);
    for (;;) {
      const w = await next();
      if (w < limit) return Number(w % N);
    }
  };
  const out = draw.outcome || {};
  if (draw.kind === "game-one-colours") {
    const i = await uniform(2);
    return draw.candidates[i] === out.white && draw.candidates[1 - i] === out.black
      ? "verified" : "mismatch";
  }
  if (draw.kind === "coin-toss") {
    const face = (await uniform(2)) === 0 ? "heads" : "tails";
    const winner = face === draw.call ? draw.candidates[0] : draw.candidates[1];
    return face === out.face && winner === out.winner ? "verified" : "mismatch";
  }
  return "commitment";
}
