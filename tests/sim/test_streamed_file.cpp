// Tables streamed to their files (sim/streamed_file.hpp, CsvText with a sink,
// OutputSet::add_streamed): the chunks the sink receives concatenate to the
// text an unbounded CsvText would have built, whatever the chunk size; the
// size and CRC-32 kept as chunks pass equal those of the whole text (checked
// against Boost's CRC, an independent implementation); a write that stops
// before commit leaves neither a partial file nor its temporary, and the old
// file stays as it was. A file written by a second thread (a big network's
// links.csv) is the same file, listed in its place.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <boost/crc.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>

#include "sim/csv_text.hpp"
#include "sim/output_set.hpp"
#include "sim/streamed_file.hpp"

namespace wormsim {
namespace {

namespace fs = std::filesystem;

struct Chunks final : ByteSink {
  std::vector<std::string> got;
  void write(std::string_view bytes) override { got.emplace_back(bytes); }
  std::string joined() const {
    std::string all;
    for (const auto& c : got) all += c;
    return all;
  }
};

// A table with fields of every kind CsvText takes, one over 100 bytes long.
void fill(CsvText& t, int rows) {
  const std::string long_field(130, 'x');
  t << "id,name,value\n";
  for (int r = 0; r < rows; ++r) {
    t << r << ',' << (r % 7 == 0 ? std::string_view(long_field) : std::string_view("\"n\"")) << ','
      << static_cast<int64_t>(-1) * r * 1000003 << ',' << static_cast<uint64_t>(r) * 18446744073709ull << '\n';
  }
}

std::string whole_text(int rows) {
  CsvText t;
  fill(t, rows);
  return std::move(t).str();
}

uint32_t boost_crc(const std::string& s) {
  boost::crc_32_type crc;
  crc.process_bytes(s.data(), s.size());
  return crc.checksum();
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A fresh folder per test, removed after.
struct TmpDir {
  fs::path path = fs::temp_directory_path() /
                  ("wormsim-streamed-" + std::to_string(::getpid()) + "-" +
                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  TmpDir() { fs::create_directories(path); }
  ~TmpDir() { fs::remove_all(path); }
  std::vector<std::string> names() const {
    std::vector<std::string> n;
    for (const auto& e : fs::directory_iterator(path)) n.push_back(e.path().filename().string());
    std::sort(n.begin(), n.end());
    return n;
  }
};

TEST(StreamedCsv, ChunksConcatenateToTheWholeTextAtEveryChunkSize) {
  const std::string want = whole_text(500);
  ASSERT_GT(want.size(), 10000u);
  for (size_t chunk : {size_t{1}, size_t{7}, size_t{24}, size_t{64}, size_t{4096}, CsvText::kChunkBytes}) {
    Chunks sink;
    {
      CsvText t(sink, chunk);
      fill(t, 500);
      t.flush();
    }
    EXPECT_EQ(sink.joined(), want) << "chunk " << chunk;
    // Bounded: a chunk is larger than the buffer only when one field is.
    for (const auto& c : sink.got) EXPECT_LE(c.size(), std::max<size_t>(chunk, 130 + 256 + 24)) << "chunk " << chunk;
    if (chunk < want.size()) {
      EXPECT_GE(sink.got.size(), want.size() / std::max<size_t>(chunk, 400));
    }
    EXPECT_EQ(sink.got.size() > 1, chunk < want.size()) << "chunk " << chunk;
  }
}

TEST(StreamedCsv, NothingReachesTheSinkBeforeAChunkFillsOrTheFlush) {
  Chunks sink;
  CsvText t(sink, 64);
  t << "abc," << 12345;
  EXPECT_TRUE(sink.got.empty());
  t.flush();
  t.flush();  // a second flush sends nothing more
  ASSERT_EQ(sink.got.size(), 1u);
  EXPECT_EQ(sink.got[0], "abc,12345");
}

// Fixed-point fields: the same text as a string or written into a CsvText;
// never "-0.000"; the longest double fits.
TEST(CsvFixed, WrittenInPlaceAsFixedTextWrites) {
  EXPECT_EQ(fixed_text(0.25, 6), "0.250000");
  EXPECT_EQ(fixed_text(0.0, 6), "0.000000");  // links.csv writes an idle link's utilisation so (sim/outputs.cpp)
  EXPECT_EQ(fixed_text(-0.0000001, 3), "0.000");
  EXPECT_EQ(fixed_text(-0.0, 0), "0");
  EXPECT_EQ(fixed_text(-1.5, 1), "-1.5");
  EXPECT_EQ(fixed_text(1e308, 17).size(), 309u + 1u + 17u);
  EXPECT_EQ(fixed_text(std::numeric_limits<double>::lowest(), 17).size(), 1u + 309u + 1u + 17u);
  CsvText out;
  out << Fixed{0.125, 2} << ',' << Fixed{-0.0000001} << ',' << Fixed{2.0 / 3.0, 4} << ',' << Fixed{1e308, 17};
  EXPECT_EQ(out.str(), "0.12,0.000000,0.6667," + fixed_text(1e308, 17));
}

TEST(StreamedFile, ItsCrcAndSizeKeptChunkByChunkEqualThoseOfTheWholeText) {
  TmpDir dir;
  const std::string want = whole_text(3000);
  for (size_t piece : {size_t{1}, size_t{13}, size_t{4096}, want.size()}) {
    const fs::path target = dir.path / ("t" + std::to_string(piece) + ".csv");
    StreamedFile f(target.string());
    for (size_t at = 0; at < want.size(); at += piece) f.write(std::string_view(want).substr(at, piece));
    EXPECT_FALSE(fs::exists(target)) << "visible before commit";
    f.commit();
    EXPECT_EQ(f.bytes(), want.size());
    EXPECT_EQ(f.crc32(), boost_crc(want)) << "piece " << piece;
    EXPECT_EQ(f.crc32(), crc32_of(want));
    EXPECT_EQ(read(target), want);
  }
  EXPECT_EQ(dir.names().size(), 4u);  // no temporary left behind
}

TEST(StreamedFile, DestroyedBeforeCommitItLeavesTheOldFileAndNoTemporary) {
  TmpDir dir;
  const fs::path target = dir.path / "messages.csv";
  { std::ofstream(target) << "old\n"; }
  {
    StreamedFile f(target.string());
    f.write("new and partial");
    EXPECT_EQ(dir.names().size(), 2u);  // the target and the temporary beside it
  }
  EXPECT_EQ(read(target), "old\n");
  EXPECT_EQ(dir.names(), std::vector<std::string>{"messages.csv"});
}

TEST(StreamedFile, AnUnwritableFolderIsNamedInTheError) {
  TmpDir dir;
  const std::string target = (dir.path / "no-such-folder" / "links.csv").string();
  try {
    StreamedFile f(target);
    FAIL() << "opened " << target;
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(target + ": cannot write: ", 0), 0u) << e.what();
  }
}

TEST(OutputSetStreamed, TheManifestHasTheStreamedFilesSizeAndCrc) {
  TmpDir dir;
  OutputSet set(dir.path.string());
  set.add_streamed("links.csv", [](CsvText& t) { fill(t, 60000); });
  const std::string want = whole_text(60000);
  ASSERT_GT(want.size(), 2 * CsvText::kChunkBytes);  // several chunks
  ASSERT_EQ(set.files().size(), 1u);
  EXPECT_EQ(set.files()[0].name, "links.csv");
  EXPECT_EQ(set.files()[0].bytes, want.size());
  EXPECT_EQ(set.files()[0].crc32, boost_crc(want));
  EXPECT_EQ(read(dir.path / "links.csv"), want);
}

TEST(OutputSetStreamed, AWriterThatFailsMidwayLeavesNoPartialFile) {
  TmpDir dir;
  { std::ofstream(dir.path / "messages.csv") << "old\n"; }
  OutputSet set(dir.path.string());
  EXPECT_THROW(set.add_streamed("messages.csv",
                                [](CsvText& t) {
                                  fill(t, 60000);  // several chunks already on disk
                                  throw std::runtime_error("interrupted");
                                }),
               std::runtime_error);
  EXPECT_TRUE(set.files().empty());
  EXPECT_EQ(read(dir.path / "messages.csv"), "old\n");
  std::vector<std::string> left = dir.names();
  left.erase(std::remove(left.begin(), left.end(), ".wormsim.lock"), left.end());
  EXPECT_EQ(left, std::vector<std::string>{"messages.csv"});
}

// add_streamed_in_background: the file is the one add_streamed writes, and it
// is listed right after the file it names, whatever order the writing ends in.
TEST(OutputSetStreamed, AFileWrittenInTheBackgroundIsListedAfterTheFileItNames) {
  TmpDir dir;
  OutputSet set(dir.path.string());
  set.add_streamed_in_background("links.csv", [](CsvText& t) { fill(t, 60000); }, "messages.csv");
  set.add_streamed("messages.csv", [](CsvText& t) { fill(t, 10); });
  set.add("steps.csv", "step\n");
  set.wait_background();
  ASSERT_EQ(set.files().size(), 3u);
  EXPECT_EQ(set.files()[0].name, "messages.csv");
  EXPECT_EQ(set.files()[1].name, "links.csv");
  EXPECT_EQ(set.files()[2].name, "steps.csv");
  const std::string want = whole_text(60000);
  EXPECT_EQ(set.files()[1].bytes, want.size());
  EXPECT_EQ(set.files()[1].crc32, boost_crc(want));
  EXPECT_EQ(read(dir.path / "links.csv"), want);
  set.wait_background();  // nothing more to list
  EXPECT_EQ(set.files().size(), 3u);
}

TEST(OutputSetStreamed, AFileWrittenInTheBackgroundAfterAFileNotInTheSetIsListedLast) {
  TmpDir dir;
  OutputSet set(dir.path.string());
  set.add("a.csv", "a\n");
  set.add_streamed_in_background("b.csv", [](CsvText& t) { fill(t, 100); }, "missing.csv");
  set.add("c.csv", "c\n");
  set.commit("{}\n");  // waits for it
  ASSERT_EQ(set.files().size(), 3u);
  EXPECT_EQ(set.files()[2].name, "b.csv");
  EXPECT_EQ(read(dir.path / "b.csv"), whole_text(100));
}

TEST(OutputSetStreamed, ABackgroundWriterThatFailsThrowsWhenWaitedForAndLeavesNoPartialFile) {
  TmpDir dir;
  { std::ofstream(dir.path / "links.csv") << "old\n"; }
  OutputSet set(dir.path.string());
  set.add_streamed_in_background("links.csv",
                                 [](CsvText& t) {
                                   fill(t, 60000);
                                   throw std::runtime_error("disk full");
                                 },
                                 "messages.csv");
  set.add_streamed("messages.csv", [](CsvText& t) { fill(t, 10); });
  try {
    set.wait_background();
    FAIL() << "the writer's error was lost";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "disk full");
  }
  ASSERT_EQ(set.files().size(), 1u);
  EXPECT_EQ(set.files()[0].name, "messages.csv");
  EXPECT_EQ(read(dir.path / "links.csv"), "old\n");
  std::vector<std::string> left = dir.names();
  left.erase(std::remove(left.begin(), left.end(), ".wormsim.lock"), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"links.csv", "messages.csv"}));
}

// The writer on the main thread fails while the background one is still at
// work: the set, destroyed as the error unwinds, waits for that thread (a
// thread destroyed unjoined would end the process) and leaves no temporary.
TEST(OutputSetStreamed, AnErrorOnTheMainThreadWhileTheBackgroundWriterWorksEndsCleanly) {
  TmpDir dir;
  {
    OutputSet set(dir.path.string());
    set.add_streamed_in_background("links.csv", [](CsvText& t) { fill(t, 200000); }, "messages.csv");
    EXPECT_THROW(set.add_streamed("messages.csv",
                                  [](CsvText&) { throw std::runtime_error("disk full"); }),
                 std::runtime_error);
  }
  for (const auto& name : dir.names()) EXPECT_EQ(name.find(".tmp."), std::string::npos) << name;
}

}  // namespace
}  // namespace wormsim
