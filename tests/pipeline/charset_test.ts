import assert from "node:assert/strict";
import { decodeBody, normalizeCharset, sniffCharset } from "../../src/pipeline/charset.ts";

const CHARSET_PAGES = new URL("../../fixtures/pages/charset/", import.meta.url);

function page(name: string): Promise<Uint8Array> {
  return Deno.readFile(new URL(name, CHARSET_PAGES));
}

/** Fixture page, Content-Type it is served with, charset and text it must decode to. */
const CASES: [string, string, string, string][] = [
  [
    "windows-1252.html",
    "text/html; charset=windows-1252",
    "windows-1252",
    "“Naïve” résumé — costs 5 €",
  ],
  ["iso-8859-2.html", "text/html; charset=ISO-8859-2", "iso-8859-2", "Zażółć gęślą jaźń"],
  ["shift_jis.html", "text/html", "shift_jis", "東京は日本の首都です。ソフトウェア"],
  ["euc-jp.html", "text/html", "euc-jp", "大阪と京都。カタカナ"],
  ["gbk.html", "text/html", "gbk", "欢迎访问，这是简体中文。"],
  ["gb18030.html", "text/html", "gb18030", "龘靐齉齾 — 欢迎"],
  ["big5.html", "text/html", "big5", "歡迎光臨，這是繁體中文。"],
  ["euc-kr.html", "text/html", "euc-kr", "안녕하세요, 서울입니다."],
  ["utf-16le-bom.html", "text/html", "utf-16le", "Ünïcödé text — 日本語"],
  ["utf-16be-bom.html", "text/html", "utf-16be", "Ünïcödé text — 日本語"],
  ["utf-8-bom.html", "text/html; charset=windows-1252", "utf-8", "Straße — ½ €"],
  ["undeclared-1252.html", "text/html", "windows-1252", "“Smart quotes” and façade"],
];

for (const [name, contentType, charset, text] of CASES) {
  Deno.test(`decodeBody() reads ${name} as ${charset}`, async () => {
    const decoded = decodeBody(await page(name), contentType);
    assert.equal(decoded.charset, charset);
    assert.ok(decoded.text.includes(text), decoded.text);
    assert.ok(!decoded.text.includes("\uFFFD"), "no replacement characters");
    assert.ok(decoded.text.startsWith("<!DOCTYPE html>"), "the byte order mark is dropped");
  });
}

Deno.test("sniffCharset() prefers the BOM, then the header, then <meta>", () => {
  const meta = new TextEncoder().encode('<html><head><meta charset="koi8-r"></head>');
  assert.deepEqual(sniffCharset(meta, "text/html; charset=iso-8859-5"), {
    charset: "iso-8859-5",
    source: "header",
  });
  assert.deepEqual(sniffCharset(meta, "text/html"), { charset: "koi8-r", source: "meta" });
  assert.deepEqual(sniffCharset(meta, null), { charset: "koi8-r", source: "meta" });
  const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...meta]);
  assert.deepEqual(sniffCharset(bom, "text/html; charset=koi8-r"), {
    charset: "utf-8",
    source: "bom",
  });
});

Deno.test("sniffCharset() reads quoted header labels and XML declarations", () => {
  const empty = new Uint8Array();
  assert.equal(sniffCharset(empty, 'text/html; charset="Shift_JIS"')?.charset, "shift_jis");
  assert.equal(sniffCharset(empty, "text/html;CHARSET=latin1")?.charset, "windows-1252");
  const xml = new TextEncoder().encode('<?xml version="1.0" encoding="ISO-8859-15"?><html/>');
  assert.deepEqual(sniffCharset(xml, "application/xhtml+xml"), {
    charset: "iso-8859-15",
    source: "meta",
  });
});

Deno.test("sniffCharset() ignores unknown labels and <meta> in plain text", () => {
  const meta = new TextEncoder().encode('<meta charset="big5">');
  assert.equal(sniffCharset(meta, "text/html; charset=klingon")?.source, "meta");
  assert.equal(sniffCharset(meta, "text/plain"), undefined);
  assert.equal(sniffCharset(new TextEncoder().encode("<p>plain</p>"), "text/html"), undefined);
});

Deno.test("sniffCharset() treats a <meta> claim of UTF-16 on ASCII bytes as UTF-8", () => {
  const bytes = new TextEncoder().encode('<meta charset="utf-16"><p>hi</p>');
  assert.equal(sniffCharset(bytes, "text/html")?.charset, "utf-8");
});

Deno.test("sniffCharset() finds <meta> after a long head but not past the prescan window", () => {
  const head = `<head>${"<!-- padding -->".repeat(150)}<meta charset="euc-kr">`;
  assert.equal(sniffCharset(new TextEncoder().encode(head), "text/html")?.charset, "euc-kr");
  const far = `<head>${" ".repeat(5000)}<meta charset="euc-kr">`;
  assert.equal(sniffCharset(new TextEncoder().encode(far), "text/html"), undefined);
});

Deno.test("normalizeCharset() maps labels to WHATWG names and refuses unknown ones", () => {
  assert.equal(normalizeCharset("UTF8"), "utf-8");
  assert.equal(normalizeCharset(" 'ISO-8859-1' "), "windows-1252");
  assert.equal(normalizeCharset("cp1252"), "windows-1252");
  assert.equal(normalizeCharset("Windows1252"), "windows-1252");
  assert.equal(normalizeCharset("x-sjis"), "shift_jis");
  assert.equal(normalizeCharset("GB2312"), "gbk");
  assert.equal(normalizeCharset("ks_c_5601-1987"), "euc-kr");
  assert.equal(normalizeCharset("iso_8859-2"), "iso-8859-2");
  assert.equal(normalizeCharset("iso-2022-kr"), undefined);
  assert.equal(normalizeCharset("no-such-charset"), undefined);
});

Deno.test("decodeBody() keeps valid undeclared UTF-8 as UTF-8", () => {
  const decoded = decodeBody(new TextEncoder().encode("<p>naïve — 東京</p>"), "text/html");
  assert.deepEqual(decoded, { text: "<p>naïve — 東京</p>", charset: "utf-8", source: "default" });
});

Deno.test("decodeBody() honours a declared UTF-8 even when bytes are invalid", () => {
  const decoded = decodeBody(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), "text/plain; charset=utf-8");
  assert.equal(decoded.charset, "utf-8");
  assert.equal(decoded.text, "caf\uFFFD");
});
