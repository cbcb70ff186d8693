package org.jdvm.core.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.jdvm.core.Change;
import org.jdvm.core.CoreConfig;
import org.jdvm.core.Effect;
import org.jdvm.core.NodeSpec;
import org.jdvm.core.RequestId;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.record.Bytes;
import org.jdvm.pmix.record.RecordCodec;
import org.junit.jupiter.api.Test;

/** docs/journal.md "Files": the framing, the codec, and what a damaged journal gives. */
class JournalFormatTest {
  private static final CoreConfig CONFIG =
      CoreConfig.of("j", List.of(new NodeSpec("n0", 2), new NodeSpec("n1", 4)));

  private static Entry.Batch batch(long seq) {
    return new Entry.Batch(
        seq,
        1000 + seq,
        42,
        7,
        List.of(new Change.OwnerAdded("a.1", "j@" + seq), new Change.JobLaunched("j@" + seq)),
        List.of(
            new Effect.Reply(
                new RequestId(seq), PmixStatus.SUCCESS, List.of(Info.of("k", Value.string("v")))),
            new Effect.CancelAsk(seq)),
        List.of(new Entry.Note("warned", "s" + seq, new byte[] {1})));
  }

  private static byte[] segment(int batches) {
    Bytes.Out out = new Bytes.Out(256);
    Bytes.Out scratch = new Bytes.Out(256);
    JournalCodec.frame(new Entry.Header(JournalCodec.VOCABULARY, CONFIG, 0), scratch, out);
    for (int i = 0; i < batches; i++) {
      JournalCodec.frame(batch(i), scratch, out);
    }
    return out.toByteArray();
  }

  @Test
  void everyEntryComesBackEqualFromItsBytes() {
    byte[] seg = segment(3);
    Framing.Scan scan = Framing.scan(seg, seg.length);
    assertThat(scan.cut()).isFalse();
    assertThat(scan.records()).hasSize(4);
    Entry.Header h = (Entry.Header) JournalCodec.decode(seg, scan.records().get(0));
    assertThat(h.config()).isEqualTo(CONFIG);
    Entry.Batch b = (Entry.Batch) JournalCodec.decode(seg, scan.records().get(2));
    assertThat(b.changes()).isEqualTo(batch(1).changes());
    assertThat(b.effects()).isEqualTo(batch(1).effects());
    // The reply is not kept: its connection dies with the controller, recovery never sends it.
    assertThat(b.effects()).containsExactly(new Effect.CancelAsk(1));
    assertThat(b.notes().get(0).key()).isEqualTo("s1");
  }

  @Test
  void aPmixValueComesBackEqualFromItsBytes() {
    Info info = Info.of("k", Value.string("v"));
    Bytes.Out out = new Bytes.Out(16);
    RecordCodec.write(out, Info.class, info);
    RecordCodec.write(out, Info.class, info); // the output's packer reused
    Bytes.In in = new Bytes.In(out.toByteArray());
    assertThat(RecordCodec.read(in, Info.class)).isEqualTo(info);
    assertThat(RecordCodec.read(in, Info.class)).isEqualTo(info);
    in.expectEnd();
  }

  @Test
  void everyJavaStringComesBackExactUnpairedSurrogatesIncluded() {
    for (String s : List.of("", "plain", "grüße", "日本", "\uD83D\uDE00", "\uD800x", "a\u0000b")) {
      Bytes.Out out = new Bytes.Out(8);
      out.str(s);
      assertThat(new Bytes.In(out.toByteArray()).str()).isEqualTo(s);
    }
  }

  @Test
  void anEntryThatCannotBeEncodedLeavesTheOutputAsItWas() {
    // Framed in place: a refusal half way through must not leave half a record behind.
    Bytes.Out out = new Bytes.Out(16);
    JournalCodec.frame(batch(1), out);
    int size = out.size();
    Change bad =
        new Change.JobSpawned(
            "ns",
            "parent",
            new org.jdvm.pmix.Proc("parent", 0),
            new RequestId(3),
            List.of(Info.of("k", Value.string("a\u0000b"))), // no PMIx string holds a NUL
            List.of(),
            List.of(),
            org.jdvm.core.MapBy.SLOT,
            false,
            null,
            null);
    Entry.Batch refused = new Entry.Batch(2, 0, 0, 0, List.of(bad), List.of(), List.of());
    assertThatThrownBy(() -> JournalCodec.frame(refused, out)).isInstanceOf(RuntimeException.class);
    assertThat(out.size()).isEqualTo(size);
    JournalCodec.frame(batch(3), out);
    byte[] bytes = out.toByteArray();
    Framing.Scan scan = Framing.scan(bytes, bytes.length);
    assertThat(scan.cut()).isFalse();
    assertThat(scan.records()).hasSize(2);
    assertThat(((Entry.Batch) JournalCodec.decode(bytes, scan.records().get(1))).seq())
        .isEqualTo(3);
  }

  @Test
  void stringsAreWrittenUnitByUnitAsTheJournalAlwaysWroteThem() {
    // The encoding of docs/journal.md, written out unit by unit: the reference the faster writer
    // must match byte for byte on random strings of every width, surrogates included.
    String units = "az09\u0000\u007f\u0080\u00e9\u07ff\u0800\u65e5\uD800\uDBFF\uDC00\uFFFF";
    Random rnd = new Random(11);
    for (int i = 0; i < 2_000; i++) {
      StringBuilder sb = new StringBuilder();
      int n = rnd.nextInt(i % 10 == 0 ? 300 : 12);
      for (int k = 0; k < n; k++) {
        sb.append(units.charAt(rnd.nextInt(rnd.nextBoolean() ? 4 : units.length())));
      }
      String s = sb.toString();
      java.io.ByteArrayOutputStream want = new java.io.ByteArrayOutputStream();
      for (int k = 0; k < s.length(); k++) {
        char c = s.charAt(k);
        if (c < 0x80) {
          want.write(c);
        } else if (c < 0x800) {
          want.write(0xC0 | c >> 6);
          want.write(0x80 | c & 0x3F);
        } else {
          want.write(0xE0 | c >> 12);
          want.write(0x80 | c >> 6 & 0x3F);
          want.write(0x80 | c & 0x3F);
        }
      }
      Bytes.Out out = new Bytes.Out(1);
      out.u8(7).str(s);
      byte[] got = out.toByteArray();
      assertThat(got[0]).isEqualTo((byte) 7);
      assertThat(new Bytes.In(got, 1, 4).i32()).isEqualTo(want.size());
      assertThat(Arrays.copyOfRange(got, 5, got.length)).as(s).isEqualTo(want.toByteArray());
    }
  }

  @Test
  void aTornTailIsCutAtTheLastWholeRecordWhereverItTears() {
    byte[] seg = segment(5);
    int whole = Framing.scan(seg, seg.length).records().size();
    for (int len = 0; len < seg.length; len++) {
      Framing.Scan scan = Framing.scan(seg, len);
      int kept = scan.records().size();
      assertThat(kept).isLessThan(whole);
      assertThat(scan.validLength()).isLessThanOrEqualTo(len);
      Framing.Scan again = Framing.scan(Arrays.copyOf(seg, scan.validLength()), scan.validLength());
      assertThat(again.cut()).isFalse();
      assertThat(again.records()).hasSize(kept);
    }
  }

  @Test
  void aFlippedByteStopsTheScanAtTheRecordItDamaged() {
    byte[] seg = segment(5);
    List<Framing.Slice> records = Framing.scan(seg, seg.length).records();
    Random rnd = new Random(14);
    for (int i = 0; i < 200; i++) {
      byte[] bad = seg.clone();
      int at = rnd.nextInt(bad.length);
      bad[at] ^= (byte) (1 + rnd.nextInt(255));
      Framing.Scan scan = Framing.scan(bad, bad.length);
      assertThat(scan.cut()).as("a flip at byte %d is noticed", at).isTrue();
      int damaged = 0;
      while (damaged + 1 < records.size()
          && records.get(damaged + 1).offset() - Framing.OVERHEAD <= at) {
        damaged++;
      }
      assertThat(scan.records()).hasSize(damaged);
    }
  }

  @Test
  void bytesThatAreNotAnEntryAreCorruptNotACrash() {
    Random rnd = new Random(7);
    for (int i = 0; i < 2_000; i++) {
      byte[] junk = new byte[rnd.nextInt(64)];
      rnd.nextBytes(junk);
      try {
        JournalCodec.decode(junk, new Framing.Slice(0, junk.length));
      } catch (Bytes.Corrupt expected) {
        // The only way it may fail.
      }
    }
    assertThatThrownBy(() -> new Bytes.In(new byte[] {0, 0, 0, 9, 1}).str())
        .isInstanceOf(Bytes.Corrupt.class);
    assertThatThrownBy(() -> new Bytes.In(new byte[] {0x7f, 0, 0, 0}).count(1))
        .isInstanceOf(Bytes.Corrupt.class);
  }
}
