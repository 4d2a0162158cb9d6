// Content types compared as media types (RFC 9110 §8.3.1), the rule verification, parity and the load engine share.
import { assert, assertEquals } from "@std/assert";
import { comparedMediaType, sameMediaType } from "./media_type.ts";

Deno.test("an expectation without parameters matches its type with any parameters, in any case and spacing", () => {
  for (
    const actual of [
      "text/plain",
      "text/plain;charset=utf-8",
      "text/plain; charset=UTF-8",
      "Text/PLAIN ;charset=utf-8",
      "text/plain;  charset=utf-8 ; format=flowed",
    ]
  ) {
    assert(sameMediaType("text/plain", actual), actual);
  }
  for (const actual of ["text/html", "text/plainer", "text/plain-x; charset=utf-8", "text", "", undefined]) {
    assert(!sameMediaType("text/plain", actual), String(actual));
  }
});

Deno.test("named parameters must all be there, by name in any case, charset's value in any case", () => {
  const expected = "application/json; charset=utf-8";
  assert(sameMediaType(expected, "application/json;charset=UTF-8"));
  assert(sameMediaType(expected, 'Application/JSON; CHARSET="utf-8"'));
  assert(!sameMediaType(expected, "application/json"));
  assert(!sameMediaType(expected, "application/json; charset=iso-8859-1"));
  assert(!sameMediaType(expected, "application/json; charset=utf-8; profile=x"));
  // Values of other parameters keep their case; their order does not matter.
  assert(sameMediaType("text/plain; a=1; b=X", "text/plain;b=X;a=1"));
  assert(!sameMediaType("text/plain; b=X", "text/plain; b=x"));
});

Deno.test("an expected empty content-type means none; a value that is no media type compares as text", () => {
  assert(sameMediaType("", undefined));
  assert(!sameMediaType("", "text/plain"));
  assert(!sameMediaType("text/plain", undefined));
  assert(sameMediaType("not a type", "not a type"));
  assert(!sameMediaType("not a type", "Not a type"));
  assert(!sameMediaType("text/plain; charset=utf-8", 'text/plain; charset="utf-8'));
});

Deno.test("a quoted parameter holding a semicolon is one parameter", () => {
  const type = 'multipart/form-data; boundary="a;b"';
  assertEquals(comparedMediaType(type, type), 'multipart/form-data;boundary="a;b"');
  assert(sameMediaType('multipart/form-data; boundary="a;b"', 'multipart/form-data;boundary="a;b"'));
  assert(!sameMediaType('multipart/form-data; boundary="a;b"', "multipart/form-data;boundary=a"));
});

Deno.test("what is no media type has no essence of its own", () => {
  assertEquals(comparedMediaType("text", "text/plain"), "text");
  assertEquals(comparedMediaType("text/plain/x; charset=utf-8", "text/plain"), "text/plain/x; charset=utf-8");
  assertEquals(comparedMediaType("text/plain; charset", "text/plain"), "text/plain; charset");
});
