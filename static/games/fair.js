/* The provably fair shuffle basra-shuffle/1 (RULES.md, "Provably fair shuffle"), recomputed in the
 * browser with Web Crypto (SHA-256 and HMAC-SHA256, crypto.subtle), to check a finished match's
 * game record (basra-record/1 with its "shuffle") as games/engine/shuffle.py's verify_record does:
 * the commitment, then for each round its dealer and its deck. An ES module: `fair` below. */
var ALGORITHM = "basra-shuffle/1";
var SUITS = ["C", "D", "H", "S"];
var RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
// The order the shuffle starts from: suits C D H S, in each A 2 ... 10 J Q K (rule 5).
var CANONICAL = [];
SUITS.forEach(function (suit) { RANKS.forEach(function (rank) { CANONICAL.push(rank + suit); }); });
var WORD_RANGE = 4294967296;  // 2**32
var encoder = new TextEncoder();

function available() {
  return !!(window.crypto && window.crypto.subtle);
}

function hexToBytes(hex) {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error("a server seed is 64 hex digits");
  var bytes = new Uint8Array(32);
  for (var i = 0; i < 32; i++) bytes[i] = parseInt(hex.substr(2 * i, 2), 16);
  return bytes;
}

function toHex(buffer) {
  return Array.prototype.map.call(new Uint8Array(buffer), function (b) {
    return ("0" + b.toString(16)).slice(-2);
  }).join("");
}

function concat(a, b) {
  var out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** SHA-256 of the server seed's 32 bytes, as hex (rule 1). */
async function commitment(serverSeed) {
  return toHex(await window.crypto.subtle.digest("SHA-256", hexToBytes(serverSeed)));
}

async function hmacKey(serverSeed) {
  return window.crypto.subtle.importKey(
    "raw", hexToBytes(serverSeed), {name: "HMAC", hash: "SHA-256"}, false, ["sign"]);
}

/** Round r's stream of 32-bit big-endian unsigned integers (rule 3): block k is
 * HMAC-SHA256(server seed, message + "\n" + k), message = "basra-shuffle/1\n" + each client
 * seed and "\n", then r. */
function Stream(key, clientSeeds, round) {
  this.key = key;
  this.message = encoder.encode(
    ALGORITHM + "\n" + clientSeeds.map(function (s) { return s + "\n"; }).join("") + String(round));
  this.block = 0;
  this.words = [];
}

Stream.prototype.next = async function () {
  if (!this.words.length) {
    var data = concat(this.message, encoder.encode("\n" + this.block));
    var digest = new DataView(await window.crypto.subtle.sign("HMAC", this.key, data));
    for (var i = 0; i < 8; i++) this.words.push(digest.getUint32(4 * i, false));
    this.block += 1;
  }
  return this.words.shift();
};

/** A uniform integer in 0 .. n-1 by rejection (rule 4). */
async function below(n, stream) {
  var limit = Math.floor(WORD_RANGE / n) * n;
  for (;;) {
    var u = await stream.next();
    if (u < limit) return u % n;
  }
}

/** Round r's 52 card codes, deck[0] on top (rule 5: Fisher-Yates from the canonical order). */
async function deck(key, clientSeeds, round) {
  var stream = new Stream(key, clientSeeds, round);
  var cards = CANONICAL.slice();
  for (var i = cards.length - 1; i > 0; i--) {
    var j = await below(i + 1, stream);
    var swap = cards[i]; cards[i] = cards[j]; cards[j] = swap;
  }
  return cards;
}

/** The first round's dealer: below(n) on round 0's stream (rule 5). */
async function firstDealer(key, clientSeeds) {
  return below(clientSeeds.length, new Stream(key, clientSeeds, 0));
}

function sameDeck(a, b) {
  if (!Array.isArray(a) || a.length !== b.length) return false;
  for (var i = 0; i < b.length; i++) {
    // The record may write the ten as "T" (RULES.md "Names"); the site writes "10".
    if (String(a[i]).replace(/^T/, "10") !== b[i]) return false;
  }
  return true;
}

/**
 * Check a finished match's record: [{what: "commitment"|"dealer"|"deck", round: null|r, ok}],
 * in the order of games/engine/shuffle.py's verify_record. shownCommitment (optional) is the
 * commitment the table showed from its creation; the server seed must match it too.
 * Rejects (throws) for a record with no shuffle data or no server seed.
 */
async function verify(record, shownCommitment) {
  var data = record && record.shuffle;
  if (!data || data.algorithm !== ALGORITHM || !data.server_seed) {
    throw new Error("the record carries no revealed basra-shuffle/1 data");
  }
  var seeds = data.client_seeds;
  var checks = [];
  var computed = await commitment(data.server_seed);
  checks.push({what: "commitment", round: null,
               ok: computed === data.commitment && (!shownCommitment || computed === shownCommitment)});
  var key = await hmacKey(data.server_seed);
  var dealer = await firstDealer(key, seeds);
  var rounds = record.rounds || [];
  // Every match that started dealt round 1: no rounds at all hides every deck.
  if (!rounds.length) checks.push({what: "deck", round: 1, ok: false});
  for (var r = 1; r <= rounds.length; r++) {
    var round = rounds[r - 1];
    checks.push({what: "dealer", round: r, ok: round.dealer === dealer});
    dealer = (dealer + 1) % seeds.length;
    checks.push({what: "deck", round: r, ok: sameDeck(round.deck, await deck(key, seeds, r))});
  }
  return checks;
}

export const fair = {
  available: available, commitment: commitment, deck: function (serverSeed, seeds, round) {
    return hmacKey(serverSeed).then(function (key) { return deck(key, seeds, round); });
  },
  verify: verify,
};
