import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/clock/clock.js";
import { type CursorBinding, CursorCodec, CursorError } from "../../../src/pagination/cursor-codec.js";
import { type CursorSecret, createKeyring } from "../../../src/pagination/cursor-keys.js";
import { BpeTokenCounter } from "../../../src/tokenizer/bpe-token-counter.js";

const SECRET = "0123456789abcdef-secret";
const DAY = 24 * 60 * 60 * 1000;
const binding: CursorBinding = {
  operation: "list",
  canonicalInput: '{"site":"a"}',
  keySpec: "id:asc",
  keyFields: ["id"],
  principal: null,
};
const bound = (keyFields: string[]): CursorBinding => ({
  ...binding,
  keySpec: `${keyFields}:asc`,
  keyFields,
});
const clock = new ManualClock(Date.UTC(2026, 5, 1));
const start = clock.now();
afterEach(() => clock.set(start));
const codec = (secret: CursorSecret | undefined, options: { encrypt?: boolean; ttlMs?: number } = {}) =>
  new CursorCodec({
    keyring: createKeyring(secret),
    clock,
    ttlMs: options.ttlMs ?? DAY,
    encrypt: options.encrypt ?? false,
    maxLength: 1024,
  });
const signed = codec(SECRET);
const encrypted = codec(SECRET, { encrypt: true });

/** Cursors of real servers of the format before this one (JSON payloads), signed and encrypted. */
const OLDER_FORMAT = [
  "AQZOV0o4Z0oCiZaGX2MZEYai36oebDXcicZxOMczhRw4-PqAfyffV3siYiI6InY1SFZYcTJHeUx3YXIzS1N2bHBCWVAiLCJhIjp7ImlkIjo1MDB9LCJlIjoxNzgwMzU4NDAwMDAwfQ",
  "AgZOV0o4Z0ovxm_K5WG3V1j1g4qREjTcD0W4pzhGRgZ8nTJa8-C2nHpsyrI7zHIfzw2uoXrSVPfJpbuJcUKGLT8NxPy6LDSkbxUDfD8pHoNqL9WSv63bjEj6IuJaOUfKx8jV",
];

/** A deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const WORDS =
  "cache report order intro model token stream window article site title budget user issue label commit branch release search filter invoice account project update".split(
    " ",
  );

/** `count` distinct 16-character strings from `make`, sorted: the keys of a walk. */
function walkKeys(count: number, make: (next: () => number) => string): string[] {
  const next = random(24);
  const keys = new Set<string>();
  while (keys.size < count) keys.add(make(next));
  return [...keys].sort();
}
const pick = (next: () => number) => WORDS[Math.floor(next() * WORDS.length)] as string;
const SLUGS = walkKeys(10_000, (next) =>
  `${pick(next)}-${pick(next)}-${pick(next)}-${pick(next)}`.slice(0, 16),
);
const HEX = walkKeys(10_000, (next) =>
  Array.from({ length: 16 }, () => "0123456789abcdef"[Math.floor(next() * 16)]).join(""),
);

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

describe("CursorCodec: round trips", () => {
  it("round-trips typed key values, signed and encrypted", () => {
    const after = {
      at: new Date("2026-01-02T03:04:05.678Z"),
      id: 2n ** 70n,
      n: 1.5,
      s: "é and 😀",
      b: true,
      z: null,
    };
    const fields = Object.keys(after);
    for (const c of [signed, encrypted]) {
      const decoded = c.decode(c.encode(after, bound(fields)), bound(fields));
      expect(decoded).toStrictEqual(after);
    }
  });

  it.each([
    ["an integer", 5000, /^[A-Za-z0-9_-]{20}5000$/],
    ["a negative integer", -42, /^[A-Za-z0-9_-]{20}-42$/],
    ["a bigint", 2n ** 62n, /^[A-Za-z0-9_-]{20}4611686018427387904$/],
    ["a slug", "intro-to.paging_2", /^[A-Za-z0-9_-]{20}intro-to\.paging_2$/],
    ["an ISO time as text", "2026-01-02T03:04:05Z", /^[A-Za-z0-9_-]{20}2026-01-02T03~3a04~3a05Z$/],
  ])("writes %s readably after a 20-character header and MAC", (_, value, shape) => {
    const token = signed.encode({ id: value }, binding);
    expect(token).toMatch(shape);
    expect(signed.decode(token, binding)).toStrictEqual({ id: value });
  });

  it("packs what would be longer written readably, and keeps its type", () => {
    for (const value of [
      "héllo wörld",
      `${"x".repeat(8)}\u00a0`,
      2n ** 100n,
      1.5,
      true,
      null,
      "",
      "a\uD800",
    ]) {
      const token = signed.encode({ id: value }, binding);
      expect(signed.decode(token, binding)).toStrictEqual({ id: value });
    }
    expect(signed.encode({ id: "héllo wörld" }, binding)).toHaveLength(20 + 19); // 14 bytes packed
  });

  it("carries state beside the key, signed or encrypted", () => {
    const state = { s: new Date(0), u: 1_700_000_000_000, p: 3, answers: JSON.stringify([{ pin: "1234" }]) };
    for (const c of [signed, encrypted]) {
      expect(c.open(c.encode({ id: 7 }, binding, state), binding)).toStrictEqual({ after: { id: 7 }, state });
    }
  });

  it("carries a request state of tens of kilobytes when the codec allows it", () => {
    const large = new CursorCodec({
      keyring: createKeyring(SECRET),
      clock,
      ttlMs: 600_000,
      encrypt: true,
      maxLength: 64 * 1024,
    });
    const replay = { ...binding, keySpec: "frugal/request-state", keyFields: [] };
    const answers = JSON.stringify(
      Array.from({ length: 400 }, (_, i) => ({ action: "accept", content: { i } })),
    );
    const token = large.encode({}, replay, { answers });
    expect(token.length).toBeLessThan(answers.length * 1.4);
    expect(large.open(token, replay)).toStrictEqual({ after: {}, state: { answers } });
  });

  it("refuses to issue a cursor for values that are not the binding's key fields", () => {
    expect(() => signed.encode({ slug: "a" }, binding)).toThrow(/key fields \(id\), not of slug/);
    expect(() => signed.encode({ id: 1, slug: "a" }, binding)).toThrow(/not of id, slug/);
    expect(() => signed.encode({ id: Number.NaN }, binding)).toThrow(TypeError);
    expect(() => signed.encode({ id: 1 }, binding, { s: undefined })).toThrow(TypeError);
  });

  it("refuses to issue a cursor that decode would refuse as too long", () => {
    const short = new CursorCodec({
      keyring: createKeyring(SECRET),
      clock,
      ttlMs: DAY,
      encrypt: false,
      maxLength: 200,
    });
    expect(() => short.encode({ id: "x".repeat(500) }, binding)).toThrow(/over maxCursorLength \(200\)/);
  });
});

describe("CursorCodec: sizes (the contract's Lean answers)", () => {
  const counter = new BpeTokenCounter();
  const tokensOf = async (text: string) => (await counter.count(text, 1_000)).tokens;
  beforeAll(() => counter.load());

  /** Characters and o200k tokens of the cursor after each key of a walk. */
  async function walk(keys: readonly (number | string)[], c = signed) {
    const chars: number[] = [];
    const tokens: number[] = [];
    const ownTokens: number[] = [];
    for (const id of keys) {
      const token = c.encode({ id }, binding);
      chars.push(token.length);
      tokens.push(await tokensOf(token));
      ownTokens.push(await tokensOf(String(id)));
    }
    return {
      maxChars: Math.max(...chars),
      medianTokens: median(tokens),
      overhead: median(tokens.map((t, i) => t - (ownTokens[i] as number))),
    };
  }

  it("keeps a walk of the integers 1..10,000 under 40 characters and a median of 20 tokens", async () => {
    const figures = await walk(Array.from({ length: 10_000 }, (_, i) => i + 1));
    expect(figures.maxChars).toBeLessThanOrEqual(40);
    expect(figures.maxChars).toBe(25);
    expect(figures.medianTokens).toBeLessThanOrEqual(20);
  });

  it("keeps a walk of 10,000 slugs of 16 characters under 40 characters and a median of 20 tokens", async () => {
    const figures = await walk(SLUGS);
    expect(figures.maxChars).toBe(36);
    expect(figures.medianTokens).toBeLessThanOrEqual(20);
  });

  it("adds about 14 tokens to a key that costs tokens itself (16 hex digits), within 40 characters", async () => {
    const figures = await walk(HEX);
    expect(figures.maxChars).toBe(36);
    expect(figures.overhead).toBeLessThanOrEqual(14);
  });

  it("keeps any one string of at most 16 URL-safe characters within 40 characters", () => {
    const next = random(7);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._";
    for (let i = 0; i < 2_000; i++) {
      const id = Array.from(
        { length: Math.floor(next() * 17) },
        () => alphabet[Math.floor(next() * 66)],
      ).join("");
      expect(signed.encode({ id }, binding).length, id).toBeLessThanOrEqual(40);
    }
  });

  it("keeps values that take at most 32 bytes within 64 characters", () => {
    const cases: Array<[string[], unknown[]]> = [
      [["name"], ["é".repeat(16)]], // 32 bytes of UTF-8, not URL-safe
      [["name"], ["a b".repeat(10).slice(0, 31)]],
      [["path"], ["/docs/guides/pagination-and-cur"]],
      [["id"], [Number.MIN_SAFE_INTEGER]],
      [["id"], [-(2n ** 250n)]],
      [
        ["updatedAt", "slug"],
        [new Date(Date.UTC(2026, 0, 1)), "intro-to-pagination-2026"],
      ],
      [
        ["updatedAt", "title"],
        [new Date(Date.UTC(2026, 0, 1)), "Ünïcödé title 12345"],
      ],
      [
        ["score", "id"],
        [0.1 + 0.2, "0f3c9a7e-21d4-4b7e"],
      ],
      [
        ["a", "b"],
        ["cache-report-ord", "model-token-win"],
      ],
      [
        ["site", "rank", "id"],
        ["blog", 12, "post-20260101-ab"],
      ],
    ];
    for (const [fields, values] of cases) {
      const after = Object.fromEntries(fields.map((field, i) => [field, values[i]]));
      const token = signed.encode(after, bound(fields));
      expect(token.length, String(values)).toBeLessThanOrEqual(64);
      expect(encrypted.encode(after, bound(fields)).length - token.length).toBe(13);
    }
  });

  it("adds at most 32 characters with encryptCursors", async () => {
    for (const keys of [
      Array.from({ length: 1_000 }, (_, i) => i * 97),
      SLUGS.slice(0, 1_000),
      HEX.slice(0, 1_000),
    ]) {
      for (const id of keys) {
        const grows = encrypted.encode({ id }, binding).length - signed.encode({ id }, binding).length;
        expect(grows).toBeLessThanOrEqual(16);
      }
    }
  });
});

describe("CursorCodec: binding, keys and expiry", () => {
  it("binds to operation, input, key spec and principal without carrying any of them", () => {
    for (const c of [signed, encrypted]) {
      const token = c.encode({ id: 1 }, binding);
      for (const other of [
        { ...binding, operation: "other" },
        { ...binding, canonicalInput: '{"site":"b"}' },
        { ...binding, keySpec: "id:desc" },
        { ...binding, keySpec: "key:asc", keyFields: ["key"] },
        { ...binding, principal: "principal:mallory" },
      ]) {
        expect(() => c.decode(token, other)).toThrow(
          "the cursor was altered, or belongs to another tool, other arguments or another user",
        );
      }
    }
    const long = { ...binding, operation: "x".repeat(500), principal: `principal:${"y".repeat(500)}` };
    expect(signed.encode({ id: 1 }, long)).toHaveLength(signed.encode({ id: 1 }, binding).length);
  });

  it("refuses every change of one character, signed or encrypted (a MAC of 96 bits)", () => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~";
    for (const [c, token] of [
      [signed, signed.encode({ id: "cache-report-ord" }, binding)],
      [signed, signed.encode({ id: 5000 }, binding, { p: 2 })],
      [encrypted, encrypted.encode({ id: 5000 }, binding)],
    ] as const) {
      expect(token.slice(4, 20)).toMatch(/^[A-Za-z0-9_-]{16}$/); // 16 × 6 = 96 bits
      for (let i = 0; i < token.length; i++) {
        for (let shift = 1; shift < alphabet.length; shift += 13) {
          const replacement = alphabet[(alphabet.indexOf(token[i] as string) + shift) % alphabet.length];
          const changed = token.slice(0, i) + replacement + token.slice(i + 1);
          expect(() => c.decode(changed, binding), `${changed} (at ${i})`).toThrow(CursorError);
        }
      }
    }
  });

  it("rotates keys: old cursors verify while listed, are refused once retired", () => {
    const old = codec([{ id: "k1", secret: "first-secret-0123456789" }]);
    const token = old.encode({ id: 1 }, binding);
    const rotated = codec([
      { id: "k2", secret: "second-secret-0123456789" },
      { id: "k1", secret: "first-secret-0123456789" },
    ]);
    expect(rotated.decode(token, binding)).toEqual({ id: 1 });
    expect(() => codec([{ id: "k2", secret: "second-secret-0123456789" }]).decode(token, binding)).toThrow(
      "the cursor was not issued by this server, or its key was retired",
    );
    const sameIdOtherSecret = codec([{ id: "k1", secret: "forged-secret-0123456789" }]);
    expect(() => sameIdOtherSecret.decode(token, binding)).toThrow(/altered/);
  });

  it("verifies a cursor whose key shares its 3-bit hint with another listed key", () => {
    // 24 keys: some share a hint; each cursor is verified by its own key among them.
    const secrets = Array.from({ length: 24 }, (_, i) => ({
      id: `k${i}`,
      secret: `secret-number-${i}-0123456789`,
    }));
    const all = codec(secrets);
    for (const secret of secrets) {
      const token = codec([secret]).encode({ id: 3 }, binding);
      expect(all.decode(token, binding)).toEqual({ id: 3 });
    }
  });

  it("expires after its lifetime (24 hours, to within 65.5 s), then says so", () => {
    const token = signed.encode({ id: 1 }, binding);
    clock.advance(DAY - 65_536);
    expect(signed.decode(token, binding)).toEqual({ id: 1 });
    clock.advance(65_536);
    expect(() => signed.decode(token, binding)).toThrow("the cursor has expired");
    clock.advance(10 * DAY); // past three cycles of its carried count (3.1 days each): still read as expired
    expect(() => signed.decode(token, binding)).toThrow("the cursor has expired");
  });

  it("expires a short-lived cursor to the millisecond", () => {
    const brief = codec(SECRET, { ttlMs: 1_000, encrypt: true });
    const token = brief.encode({ id: 1 }, binding);
    clock.advance(999);
    expect(brief.decode(token, binding)).toEqual({ id: 1 });
    clock.advance(1);
    expect(() => brief.decode(token, binding)).toThrow("the cursor has expired");
  });

  it("reads a cursor issued by an instance with another lifetime", () => {
    const token = codec(SECRET, { ttlMs: 60_000 }).encode({ id: 1 }, binding);
    expect(codec(SECRET, { ttlMs: 7 * DAY }).decode(token, binding)).toEqual({ id: 1 });
  });
});

describe("CursorCodec: refusals", () => {
  it("refuses a cursor of the format before this one, saying it is from an older version", () => {
    for (const token of OLDER_FORMAT) {
      for (const c of [signed, encrypted]) {
        expect(() => c.decode(token, binding)).toThrow("the cursor is from an older version of this server");
      }
    }
  });

  it("refuses oversized and malformed cursors with a CursorError", () => {
    expect(() => signed.decode("A".repeat(2000), binding)).toThrow(
      "the cursor is longer than 1024 characters",
    );
    const valid = signed.encode({ id: 1 }, binding);
    for (const bad of [
      "",
      "!!",
      "AAAA",
      "not a cursor",
      "a/b",
      Buffer.from([1, 0]).toString("base64url"),
      valid.slice(0, 19), // no whole MAC
      `QAAA${valid.slice(4)}`, // another key hint, expiry and kind
      `w${valid.slice(1)}`, // format 3
      `~${valid.slice(1)}`,
      `${valid.slice(0, 10)}.${valid.slice(11)}`, // not base64url inside the MAC
    ]) {
      expect(() => signed.decode(bad, binding), bad).toThrow(CursorError);
    }
  });

  it("does not reveal key values when encrypted, and makes each cursor unique", () => {
    const token = encrypted.encode({ id: "top-secret-slug" }, binding);
    expect(token).not.toContain("top-secret");
    expect(Buffer.from(token, "base64url").toString("latin1")).not.toContain("top-secret");
    expect(encrypted.encode({ id: "top-secret-slug" }, binding)).not.toBe(token);
    expect(encrypted.decode(token, binding)).toEqual({ id: "top-secret-slug" });
  });

  it("refuses a signed cursor when encrypting, and an encrypted one when not", () => {
    expect(() => encrypted.decode(signed.encode({ id: 1 }, binding), binding)).toThrow(
      "the cursor is not encrypted, and this server accepts only encrypted cursors",
    );
    expect(() => signed.decode(encrypted.encode({ id: 1 }, binding), binding)).toThrow(
      "the cursor is encrypted, and this server accepts only signed cursors",
    );
  });

  it("refuses an encrypted cursor whose hidden kind or body was changed", () => {
    const token = encrypted.encode({ id: "intro-to-paging" }, binding);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~";
    for (const at of [32, 33, token.length - 1]) {
      for (let shift = 1; shift < alphabet.length; shift++) {
        const changed = `${token.slice(0, at)}${alphabet[(alphabet.indexOf(token[at] as string) + shift) % 66]}${token.slice(at + 1)}`;
        expect(() => encrypted.decode(changed, binding)).toThrow(CursorError);
      }
    }
    expect(() => encrypted.decode(token.slice(0, 32), binding)).toThrow(CursorError);
  });

  it("uses a random key without a secret, so another process refuses its cursors", () => {
    expect(createKeyring("short").weak).toBe(true);
    expect(createKeyring("a-secret-of-16-bytes").weak).toBe(false);
    expect(() => createKeyring("")).toThrow(/empty/);
    expect(createKeyring(undefined).ephemeral).toBe(true);
    const a = codec(undefined);
    const b = codec(undefined);
    expect(() => b.decode(a.encode({ id: 1 }, binding), binding)).toThrow(CursorError);
  });
});
