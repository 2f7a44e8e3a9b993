// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "portacl/error.hpp"
#include "portacl/json.hpp"

using portacl::Json;

TEST_CASE("JSON round-trips values exactly", "[json]") {
  Json j = Json::object();
  j["int"] = 4096;
  j["big"] = std::uint64_t{80000000000ull};
  j["pi"] = 3.141592653589793;
  j["neg"] = -0.125;
  j["s"] = "tab\there \"quoted\" \\ slash\nnew line \x01";
  j["arr"] = Json(Json::Array{Json(1), Json(true), Json(nullptr), Json("x")});
  j["empty_obj"] = Json::object();
  j["empty_arr"] = Json::array();
  for (int indent : {0, 2}) {
    Json k = Json::parse(j.dump(indent));
    CHECK(k.dump(0) == j.dump(0));
    CHECK(k.find("big")->as_u64() == 80000000000ull);
    CHECK(k.find("pi")->as_number() == 3.141592653589793);
    CHECK(k.find("s")->as_string() == "tab\there \"quoted\" \\ slash\nnew line \x01");
  }
}

TEST_CASE("JSON parses unicode escapes", "[json]") {
  Json j = Json::parse(R"({"a":"\u00e9\ud83d\ude00"})");
  CHECK(j.find("a")->as_string() == "\xc3\xa9\xf0\x9f\x98\x80");
}

TEST_CASE("JSON errors name the position and the problem", "[json]") {
  auto message = [](const char* text) {
    try {
      Json::parse(text);
    } catch (const portacl::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(message("{\"a\": }"), Catch::Contains("line 1, column 7"));
  CHECK_THAT(message("[1, 2"), Catch::Contains("expected ']'"));
  CHECK_THAT(message("{\"a\":1} x"), Catch::Contains("trailing characters"));
  CHECK_THAT(message("\"abc"), Catch::Contains("unterminated string"));
  CHECK_THAT(message("\n\n  tru"), Catch::Contains("line 3"));
  CHECK_THAT(message(""), Catch::Contains("unexpected end"));
  CHECK_THAT(message("01x"), Catch::Contains("trailing"));
}

TEST_CASE("JSON type errors name the field", "[json]") {
  Json j = Json::parse(R"({"n": "12"})");
  CHECK_THROWS_WITH(j.find("n")->as_number("device.compute_units"),
                    Catch::Contains("device.compute_units must be a number, found string"));
  CHECK_THROWS_WITH(Json(-1).as_u64("x"), Catch::Contains("x must be a whole number"));
  CHECK_THROWS_WITH(Json(1.5).as_u64("x"), Catch::Contains("x must be a whole number"));
}

TEST_CASE("JSON: a UTF-8 byte-order mark is accepted, lone surrogates are refused", "[json]") {
  CHECK(Json::parse("\xEF\xBB\xBF{\"a\": 1}").find("a")->as_number("a") == 1);
  CHECK(Json::parse("\"\\ud83d\\ude00\"").as_string() == "\xF0\x9F\x98\x80");  // a pair: U+1F600
  CHECK_THROWS_WITH(Json::parse("\"\\ud83d\""), Catch::Contains("lone high surrogate \\uD83D"));
  CHECK_THROWS_WITH(Json::parse("\"\\ud83dx\""), Catch::Contains("lone high surrogate"));
  CHECK_THROWS_WITH(Json::parse("\"\\ude00\""), Catch::Contains("lone low surrogate \\uDE00"));
  CHECK_THROWS_WITH(Json::parse("\"\\ud83d\\u0041\""), Catch::Contains("not a low surrogate"));
  // A BOM anywhere but the start is not whitespace.
  CHECK_THROWS(Json::parse("{\"a\": 1}\xEF\xBB\xBF"));
}
