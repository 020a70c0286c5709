import { describe, expect, it } from "vitest";
import { closeNames } from "../../../src/catalogue/close-names.js";

const KNOWN = ["search_docs", "list_docs", "purge_cache", "get_status", "config://site"];

describe("closeNames", () => {
  it("finds names within a few edits, closest first", () => {
    expect(closeNames("serch_docs", KNOWN)).toEqual(["search_docs"]);
    expect(closeNames("get_stats", KNOWN)).toEqual(["get_status"]);
    expect(closeNames("list_doc", KNOWN)).toEqual(["list_docs"]);
  });

  it("finds names that contain the one asked for", () => {
    expect(closeNames("purge", KNOWN)).toEqual(["purge_cache"]);
    expect(closeNames("config", KNOWN)).toEqual(["config://site"]);
  });

  it("ignores case, keeps at most `max`, and finds nothing for a far name", () => {
    expect(closeNames("GET_STATUS", KNOWN)).toEqual(["get_status"]);
    expect(closeNames("docs", KNOWN, 1)).toHaveLength(1);
    expect(closeNames("xylophone", KNOWN)).toEqual([]);
  });
});
