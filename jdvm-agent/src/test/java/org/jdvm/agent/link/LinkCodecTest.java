package org.jdvm.agent.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.jdvm.host.LaunchException;
import org.junit.jupiter.api.Test;

class LinkCodecTest {
  private static final byte[] B = {1, 2, 3, 0, -1};

  static List<LinkMessage> everyKind() {
    LinkMessage.Running r = new LinkMessage.Running("d@1", 3, 4242);
    return List.of(
        new LinkMessage.Challenge(1, B),
        new LinkMessage.Hello(
            2,
            "host2",
            "host2",
            4,
            Map.of("cpus", "2"),
            List.of(r),
            List.of(
                new LinkMessage.Exited("a@1", 1, 3, 0), new LinkMessage.Exited("a@1", 2, 0, 15)),
            B,
            B,
            "0.0.0.0.0.0.0.0,1.1.0.0.1.0.1.1"),
        new LinkMessage.Welcome("host2", 500, 5, List.of(r), B),
        new LinkMessage.Refused("no"),
        new LinkMessage.Heartbeat(Long.MAX_VALUE),
        new LinkMessage.Bye("stop"),
        new LinkMessage.Launch(
            7, "d@1", 0, List.of("/bin/echo", "a b"), Map.of("K", "v"), "", true, true, "0-1"),
        new LinkMessage.Signal("d@1", -1, 9),
        new LinkMessage.Stdin(8, "d@1", 0, B, 100),
        new LinkMessage.Cleanup(9, "d@1", "/tmp/x", true, true, false, false, List.of("a"), false),
        new LinkMessage.TerminateAll(10, 2000),
        new LinkMessage.OutputCredit("d@1", 65536),
        new LinkMessage.Launched(7, 999),
        LinkMessage.LaunchFailed.of(7, LaunchException.Kind.EXE_NOT_FOUND, "no such file"),
        new LinkMessage.Done(8, ""),
        new LinkMessage.Output("d@1", 0, true, B),
        new LinkMessage.Exited("d@1", 0, 0, 9, 1, 2, 3, 4),
        new LinkMessage.RelayOpened(Long.MIN_VALUE, B),
        new LinkMessage.RelayFrame(5, new byte[0]),
        new LinkMessage.RelayClosed(5));
  }

  @Test
  void everyMessageKindSurvivesARoundTrip() throws Exception {
    for (LinkMessage m : everyKind()) {
      byte[] wire = LinkCodec.encode(m);
      LinkMessage back = LinkCodec.read(new ByteArrayInputStream(wire));
      assertThat(Arrays.equals(LinkCodec.encode(back), wire)).as(m.toString()).isTrue();
      assertThat(back.getClass()).isEqualTo(m.getClass());
    }
  }

  @Test
  void everyMessageTypeIsAmongTheKindsTested() {
    assertThat(everyKind().stream().map(Object::getClass).toList())
        .containsExactlyInAnyOrder(LinkMessage.class.getPermittedSubclasses());
  }

  /**
   * docs/protocol.md "Agent link": the bytes of every kind. A message's layout is its record's
   * components in order, so a change to a record shows here: bump {@link LinkMessage#VERSION} with
   * it. All but {@code LaunchFailed} are byte for byte what the hand-written codec of version 3
   * wrote.
   */
  @Test
  void everyKindHasTheDocumentedLayout() {
    Map<Class<?>, String> golden = new LinkedHashMap<>();
    golden.put(LinkMessage.Challenge.class, "0000000e01000000010000000501020300ff");
    golden.put(
        LinkMessage.Hello.class,
        "000000e2020000000200000005686f73743200000005686f73743200000004000000010000000463707573"
            + "000000013200000001000000036440310000000300000000000010920000000200000003614031000000"
            + "010000000300000000"
            // version 8: each ended process's usage, -1 each when not known
            + "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
            + "0000000361403100000002000000000000000f"
            + "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
            + "0000000501020300ff0000000501020300ff"
            // version 7: the topology, one cpu per comma
            + "0000001f302e302e302e302e302e302e302e302c312e312e302e302e312e302e312e31");
    golden.put(
        LinkMessage.Welcome.class,
        "000000360300000005686f73743200000000000001f4000000050000000100000003644031000000030000"
            + "0000000010920000000501020300ff");
    golden.put(LinkMessage.Refused.class, "0000000704000000026e6f");
    golden.put(LinkMessage.Heartbeat.class, "00000009057fffffffffffffff");
    golden.put(LinkMessage.Bye.class, "00000009060000000473746f70");
    golden.put(
        LinkMessage.Launch.class,
        "000000470a0000000000000007000000036440310000000000000002000000092f62696e2f6563686f00000003"
            + "61206200000001000000014b0000000176000000000101"
            + "00000003302d31"); // version 7: the cpus, "0-1"
    golden.put(LinkMessage.Signal.class, "000000100b00000003644031ffffffff00000009");
    golden.put(
        LinkMessage.Stdin.class,
        "000000250c000000000000000800000003644031000000000000000501020300ff0000000000000064");
    golden.put(
        LinkMessage.Cleanup.class,
        "000000280d000000000000000900000003644031000000062f746d702f78010100000000000100000001"
            + "6100");
    golden.put(LinkMessage.TerminateAll.class, "000000110e000000000000000a00000000000007d0");
    golden.put(LinkMessage.OutputCredit.class, "000000100f000000036440310000000000010000");
    golden.put(LinkMessage.Launched.class, "0000001114000000000000000700000000000003e7");
    // The failure's code (1: the command was not found) where version 3 had the kind's name.
    golden.put(
        LinkMessage.LaunchFailed.class,
        "0000001d150000000000000007000000010000000c6e6f20737563682066696c65");
    golden.put(LinkMessage.Done.class, "0000000d16000000000000000800000000");
    golden.put(LinkMessage.Output.class, "00000016170000000364403100000000010000000501020300ff");
    golden.put(
        LinkMessage.Exited.class,
        "000000341800000003644031000000000000000000000009"
            // version 8: user and system CPU, peak resident KiB, wall: 1, 2, 3, 4
            + "0000000000000001000000000000000200000000000000030000000000000004");
    golden.put(LinkMessage.RelayOpened.class, "000000121e80000000000000000000000501020300ff");
    golden.put(LinkMessage.RelayFrame.class, "0000000d1f000000000000000500000000");
    golden.put(LinkMessage.RelayClosed.class, "00000009200000000000000005");
    for (LinkMessage m : everyKind()) {
      assertThat(HexFormat.of().formatHex(LinkCodec.encode(m)))
          .as(m.getClass().getSimpleName())
          .isEqualTo(golden.get(m.getClass()));
    }
  }

  @Test
  void aLaunchFailuresKindCrossesAsItsCodeAndComesBackByValue() throws Exception {
    Set<Integer> codes = new HashSet<>();
    for (LaunchException.Kind kind : LaunchException.Kind.values()) {
      LinkMessage.LaunchFailed f = LinkMessage.LaunchFailed.of(3, kind, "m");
      assertThat(codes.add(f.code())).as(kind.name()).isTrue();
      assertThat(f.code()).isBetween(1, 255);
      byte[] wire = LinkCodec.encode(f);
      assertThat(new String(wire, java.nio.charset.StandardCharsets.ISO_8859_1))
          .doesNotContain(kind.name());
      LinkMessage.LaunchFailed back =
          (LinkMessage.LaunchFailed) LinkCodec.read(new ByteArrayInputStream(wire));
      assertThat(back.kind()).isEqualTo(kind);
      assertThat(back.message()).isEqualTo("m");
    }
    // A code of a later build is a refusal to start, as an unknown name was before.
    assertThat(new LinkMessage.LaunchFailed(3, 99, "m").kind())
        .isEqualTo(LaunchException.Kind.START_REFUSED);
    assertThat(new LinkMessage.LaunchFailed(3, 0, "m").kind())
        .isEqualTo(LaunchException.Kind.START_REFUSED);
  }

  /**
   * Values cross the link, never Java names or ordinals: no message holds an enum, at any depth.
   */
  @Test
  void noMessageCarriesAnEnum() {
    List<String> enums = new java.util.ArrayList<>();
    for (Class<?> m : LinkMessage.class.getPermittedSubclasses()) {
      enums(m, m.getSimpleName(), enums, new HashSet<>());
    }
    assertThat(enums).isEmpty();
  }

  private static void enums(Type type, String path, List<String> found, Set<Type> seen) {
    if (!seen.add(type)) {
      return;
    }
    if (type instanceof ParameterizedType p) {
      for (Type a : p.getActualTypeArguments()) {
        enums(a, path + "<>", found, seen);
      }
    } else if (type instanceof Class<?> c && c.isEnum()) {
      found.add(path + ": " + c.getName());
    } else if (type instanceof Class<?> c && c.isRecord()) {
      for (RecordComponent rc : c.getRecordComponents()) {
        enums(rc.getGenericType(), path + "." + rc.getName(), found, seen);
      }
    }
  }

  @Test
  void aMessageHoldingANullIsNotEncodedAndANullStringIsNotDecoded() {
    assertThatThrownBy(() -> LinkCodec.encode(new LinkMessage.Refused(null)))
        .isInstanceOf(IllegalArgumentException.class);
    ByteBuffer b = ByteBuffer.allocate(5);
    b.put((byte) 4).putInt(-1).flip(); // Refused with a null reason
    assertThatThrownBy(() -> LinkCodec.decode(b)).isInstanceOf(LinkCodec.Malformed.class);
  }

  @Test
  void aHugeListCountOrAKeyTwiceInAMapIsMalformed() {
    // A Welcome whose keep declares more processes than the bytes left could hold (16 each).
    ByteBuffer huge = ByteBuffer.allocate(1 + 4 + 8 + 4 + 4 + 16);
    huge.put((byte) 3).putInt(0).putLong(500).putInt(5).putInt(2).put(new byte[16]).flip();
    assertThatThrownBy(() -> LinkCodec.decode(huge))
        .isInstanceOf(LinkCodec.Malformed.class)
        .hasMessageContaining("count");
    byte[] launch =
        LinkCodec.encode(
            new LinkMessage.Launch(7, "d@1", 0, List.of(), Map.of("K", "v"), "", false, false, ""));
    // The environment's count made 2, and its entry written twice.
    ByteBuffer twice = ByteBuffer.allocate(launch.length - 4 + 10);
    int env = 1 + 8 + 4 + 3 + 4 + 4; // kind, id, nspace, rank, argv's count
    twice.put(launch, 4, env).putInt(2);
    twice.put(launch, 4 + env + 4, 10).put(launch, 4 + env + 4, launch.length - 4 - env - 4);
    twice.flip();
    assertThatThrownBy(() -> LinkCodec.decode(twice))
        .isInstanceOf(LinkCodec.Malformed.class)
        .hasMessageContaining("twice");
  }

  @Test
  void aLengthAboveTheBoundIsRefusedBeforeAnythingIsBuffered() {
    byte[] wire = ByteBuffer.allocate(4).putInt(LinkCodec.MAX_MESSAGE_BYTES + 1).array();
    assertThatThrownBy(() -> LinkCodec.read(new ByteArrayInputStream(wire)))
        .isInstanceOf(LinkCodec.Malformed.class)
        .hasMessageContaining("declares");
  }

  @Test
  void aCountLargerThanWhatIsLeftIsRefusedWithoutAllocating() {
    ByteBuffer b = ByteBuffer.allocate(9);
    b.put((byte) 4).putInt(Integer.MAX_VALUE).putInt(0).flip(); // Refused with a huge string
    assertThatThrownBy(() -> LinkCodec.decode(b))
        .isInstanceOf(LinkCodec.Malformed.class)
        .hasMessageContaining("count");
  }

  @Test
  void trailingBytesAnUnknownKindAndABadBooleanAreRefused() {
    byte[] ok = LinkCodec.encode(new LinkMessage.Heartbeat(1));
    ByteBuffer trailing = ByteBuffer.allocate(ok.length - 4 + 1);
    trailing.put(ok, 4, ok.length - 4).put((byte) 0).flip();
    assertThatThrownBy(() -> LinkCodec.decode(trailing)).hasMessageContaining("after");
    assertThatThrownBy(() -> LinkCodec.decode(ByteBuffer.wrap(new byte[] {99})))
        .hasMessageContaining("unknown");
    byte[] exited = LinkCodec.encode(new LinkMessage.Output("n", 0, true, new byte[0]));
    ByteBuffer bad = ByteBuffer.wrap(exited, 4, exited.length - 4).slice();
    bad.put(1 + 4 + 1 + 4, (byte) 2);
    assertThatThrownBy(() -> LinkCodec.decode(bad)).hasMessageContaining("boolean");
  }

  @Test
  void aMessageCutShortIsAnEndOfStreamOrMalformedNeverAnotherException() throws Exception {
    Random random = new Random(20261124);
    for (LinkMessage m : everyKind()) {
      byte[] wire = LinkCodec.encode(m);
      for (int cut = 0; cut < wire.length; cut++) {
        byte[] part = Arrays.copyOf(wire, cut);
        assertThatThrownBy(() -> LinkCodec.read(new ByteArrayInputStream(part)))
            .isInstanceOf(EOFException.class);
      }
      // The body cut short, with its length prefix made to match: malformed.
      for (int cut = 1; cut < wire.length - 4; cut++) {
        ByteBuffer body = ByteBuffer.wrap(Arrays.copyOfRange(wire, 4, 4 + cut));
        assertThatThrownBy(() -> LinkCodec.decode(body)).isInstanceOf(LinkCodec.Malformed.class);
      }
      // Random corruption: a message or Malformed, nothing else.
      for (int i = 0; i < 50; i++) {
        byte[] body = Arrays.copyOfRange(wire, 4, wire.length);
        body[random.nextInt(body.length)] = (byte) random.nextInt(256);
        try {
          LinkCodec.decode(ByteBuffer.wrap(body));
        } catch (LinkCodec.Malformed e) {
          // expected for most
        }
      }
    }
  }

  @Test
  void aMessageAboveTheBoundIsNotEncoded() {
    byte[] big = new byte[LinkCodec.MAX_MESSAGE_BYTES];
    assertThatThrownBy(() -> LinkCodec.encode(new LinkMessage.RelayFrame(1, big)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
