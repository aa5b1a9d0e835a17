// printable(): what error messages show of users' text (sim/terminal_text.hpp).
#include <sstream>

#include <gtest/gtest.h>

#include "schedules/terminal_text.hpp"

using wormsim::EscapingStreambuf;
using wormsim::printable;

TEST(TerminalText, PlainTextNewlinesTabsAndUtf8StayAsTheyAre) {
  EXPECT_EQ(printable("network.dims: expected a list\n\tnext"), "network.dims: expected a list\n\tnext");
  EXPECT_EQ(printable("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x90\x9b"), "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x90\x9b");
}

TEST(TerminalText, ControlCharactersAreEscaped) {
  EXPECT_EQ(printable(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(printable("\x1b[2Jx\r\x7f"), "\\x1b[2Jx\\x0d\\x7f");
  EXPECT_EQ(printable("\xc2\x85"), "\\u0085");  // C1 next-line
}

TEST(TerminalText, BidirectionalFormattingIsEscaped) {
  EXPECT_EQ(printable("key\xe2\x80\xae" "cba"), "key\\u202ecba");  // right-to-left override
  EXPECT_EQ(printable("\xe2\x81\xa6x\xe2\x81\xa9"), "\\u2066x\\u2069");
  EXPECT_EQ(printable("\xd8\x9c\xe2\x80\x8f"), "\\u061c\\u200f");
}

TEST(TerminalText, BytesThatAreNotUtf8AreEscapedOneByOne) {
  EXPECT_EQ(printable("a\xff" "b"), "a\\xffb");
  EXPECT_EQ(printable("\xc3"), "\\xc3");            // cut short
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");   // overlong
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
}

TEST(TerminalText, StreamKeepsACharacterSplitAcrossWritesWhole) {
  std::ostringstream sink;
  EscapingStreambuf buf(sink.rdbuf());
  std::ostream os(&buf);
  os << "x\xe2\x80" << std::flush;
  EXPECT_EQ(sink.str(), "x");
  os << "\xae" "y\n" << std::flush;
  EXPECT_EQ(sink.str(), "x\\u202ey\n");
  os << "\xe2";
  buf.finish();
  EXPECT_EQ(sink.str(), "x\\u202ey\n\\xe2");
}
