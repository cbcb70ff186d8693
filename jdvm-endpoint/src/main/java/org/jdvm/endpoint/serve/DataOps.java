package org.jdvm.endpoint.serve;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import org.jdvm.endpoint.transport.PeerFormat;
import org.jdvm.endpoint.wireup.Member;
import org.jdvm.endpoint.wireup.PublishedData;
import org.jdvm.pmix.DataRange;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.PData;
import org.jdvm.pmix.Persistence;
import org.jdvm.pmix.PmixKeys;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.Value;
import org.jdvm.pmix.body.KeysRequest;
import org.jdvm.pmix.body.LookupReply;
import org.jdvm.pmix.body.PublishRequest;
import org.jdvm.pmix.frame.Commands;

/**
 * Published data (docs/wireup.md §c.4; docs/protocol.md "How jdvm reads the standard commands"):
 * {@code PMIx_Publish} (PUBLISHNB), {@code PMIx_Lookup} (LOOKUPNB) and {@code PMIx_Unpublish}
 * (UNPUBLISHNB), read here and kept in {@link PublishedData}. The directives are taken out of a
 * publish's infos before the rest is stored; the effective uid each request carries is not checked,
 * since every admitted peer runs as the DVM's user (docs/protocol.md "Who a peer is").
 */
public final class DataOps {
  /** What every reserved key starts with: a publish stores none of them as data. */
  private static final String RESERVED = "pmix";

  private static final System.Logger LOG = System.getLogger("org.jdvm.server.pmix");

  private final PublishedData published;
  private final Timeouts timeouts;

  public DataOps(PublishedData published, ScheduledExecutorService timer) {
    this.published = published;
    this.timeouts = new Timeouts(timer);
  }

  // ---- publish ---------------------------------------------------------------------------------

  /** PUBLISHNB ({@link PublishRequest}); answered {@code STATUS}. */
  void publish(Exchange x) throws BadRequest {
    List<Info> infos = PublishRequest.read(x.in(), x.checks()).infos();
    DataRange range = DataRange.UNDEF;
    Persistence persistence = Persistence.APP;
    List<PublishedData.Datum> data = new ArrayList<>(infos.size());
    for (Info i : infos) {
      switch (i.key()) {
        case PmixKeys.RANGE -> range = range(i);
        case PmixKeys.PERSISTENCE -> persistence = persistence(i);
        case PmixKeys.TIMEOUT -> Values.signed(i);
        case PmixKeys.USERID, PmixKeys.GRPID -> {}
        default -> {
          if (!i.key().startsWith(RESERVED)) {
            data.add(new PublishedData.Datum(i.key(), i.value(), bytes(x, i.value())));
          } else if (i.isRequired()) {
            throw BadRequest.notSupported(i.key());
          }
        }
      }
    }
    DataRange r = range;
    Persistence p = persistence;
    asMember(
        x,
        member -> {
          Optional<PublishedData.PublishRefusal> refused = published.publish(member, data, r, p);
          refused.ifPresent(why -> logRefusal(member, why));
          x.replyStatus(
              refused.map(PublishedData.PublishRefusal::status).orElse(PmixStatus.SUCCESS));
        });
  }

  /**
   * A publish past a bound is refused {@code PMIX_ERR_OUT_OF_RESOURCE} (or the status its refusal
   * names) and logged with the bound it met, once per episode of the job's refusals.
   */
  private void logRefusal(Member member, PublishedData.PublishRefusal why) {
    if (why.status() == PmixStatus.ERR_OUT_OF_RESOURCE
        && published.refusalBeginsEpisode(member.proc().nspace())) {
      LOG.log(
          System.Logger.Level.WARNING,
          "job "
              + member.proc().nspace()
              + ": PMIx_Publish refused, "
              + published.explain(why)
              + "; further refusals are not logged until it publishes again");
    }
  }

  // ---- lookup ----------------------------------------------------------------------------------

  /**
   * LOOKUPNB ({@link KeysRequest}): keys neither NULL, empty nor too long, at most {@link
   * EndpointLimits#infosPerRequest}; answered with a {@link LookupReply}.
   */
  void lookup(Exchange x) throws BadRequest {
    KeysRequest request = KeysRequest.read(x.in(), Commands.LOOKUPNB_CMD, x.checks());
    List<String> keys = request.keys();
    List<Info> infos = request.directives();
    int waitFor = 0;
    int timeoutSeconds = 0;
    DataRange range = DataRange.UNDEF;
    for (Info i : infos) {
      switch (i.key()) {
        case PmixKeys.WAIT -> waitFor = waitFor(i, keys.size());
        case PmixKeys.TIMEOUT -> timeoutSeconds = timeout(i);
        case PmixKeys.RANGE -> range = range(i);
        default -> {
          if (i.isRequired() && i.key().startsWith(RESERVED) && !isIdentity(i)) {
            throw BadRequest.notSupported(i.key());
          }
        }
      }
    }
    int need = waitFor;
    int seconds = timeoutSeconds;
    DataRange r = range;
    asMember(
        x,
        member -> {
          Timeouts.Slot slot = new Timeouts.Slot();
          PublishedData.Lookup result =
              published.lookup(
                  member,
                  keys,
                  r,
                  need,
                  x.connection(),
                  (status, found) -> {
                    slot.answered();
                    replyLookup(x, status, found);
                  });
          switch (result) {
            case PublishedData.Lookup.Found f -> replyLookup(x, PmixStatus.SUCCESS, f.data());
            case PublishedData.Lookup.NotFound n -> x.replyStatus(PmixStatus.ERR_NOT_FOUND);
            case PublishedData.Lookup.Refused f -> x.fail(f.why().status());
            case PublishedData.Lookup.Parked parked ->
                timeouts.arm(slot, seconds, () -> published.expire(parked.id()));
          }
        });
  }

  /**
   * Runs {@code then} with the requester's membership (its job and node: what publish and lookup
   * ranges are measured from); a requester that is no live process is refused {@code
   * PMIX_ERR_NOT_FOUND}.
   */
  private static void asMember(Exchange x, java.util.function.Consumer<Member> then) {
    x.read(
        x.upstream().member(x.self()),
        member -> {
          if (member.isEmpty()) {
            x.fail(PmixStatus.ERR_NOT_FOUND);
          } else {
            then.accept(member.get());
          }
        });
  }

  private static void replyLookup(Exchange x, int status, List<PData> found) {
    if (status != PmixStatus.SUCCESS) {
      x.replyStatus(status);
      return;
    }
    List<PData> out = new ArrayList<>(found.size());
    for (PData d : found) {
      Info asInfo =
          PeerFormat.infos(List.of(Info.of(d.key(), d.value())), x.peer().format()).get(0);
      out.add(new PData(d.proc(), d.key(), asInfo.value()));
    }
    x.reply(new LookupReply(status, out).write(x.format()));
  }

  // ---- unpublish -------------------------------------------------------------------------------

  /**
   * UNPUBLISHNB ({@link KeysRequest}, as a lookup's keys); answered {@code STATUS}. No keys:
   * everything the caller published (in the range, if given).
   */
  void unpublish(Exchange x) throws BadRequest {
    KeysRequest request = KeysRequest.read(x.in(), Commands.UNPUBLISHNB_CMD, x.checks());
    List<String> keys = request.keys();
    DataRange range = null;
    for (Info i : request.directives()) {
      if (i.key().equals(PmixKeys.RANGE)) {
        range = range(i);
      } else if (i.key().equals(PmixKeys.TIMEOUT)) {
        timeout(i);
      } else if (i.isRequired() && i.key().startsWith(RESERVED) && !isIdentity(i)) {
        throw BadRequest.notSupported(i.key());
      }
    }
    x.replyStatus(
        published
            .unpublish(x.self(), keys, range)
            .map(PublishedData.UnpublishRefusal::status)
            .orElse(PmixStatus.SUCCESS));
  }

  // ---- reading ---------------------------------------------------------------------------------

  /** {@code pmix.range}: a DATA_RANGE (or, as some callers pack it, a UINT8) PMIx defines. */
  private static DataRange range(Info i) throws BadRequest {
    return code(i, DataType.DATA_RANGE, DataRange::fromCode, "range");
  }

  /** {@code pmix.persist}: a PERSIST (or UINT8) PMIx defines. */
  private static Persistence persistence(Info i) throws BadRequest {
    return code(i, DataType.PERSIST, Persistence::fromCode, "persistence");
  }

  /** A one-byte enumeration of {@code type} (or UINT8, as callers also pack it) PMIx defines. */
  private static <T> T code(
      Info i, DataType type, java.util.function.IntFunction<T> fromCode, String what)
      throws BadRequest {
    DataType t = i.value().type();
    if (t != type && t != DataType.UINT8) {
      throw Values.wrongType(i, "a " + type.pmixName());
    }
    T value = fromCode.apply((int) i.value().asLong());
    if (value == null) {
      throw BadRequest.param(i.key() + " is no " + what + ": " + i.value().asLong());
    }
    return value;
  }

  /**
   * {@code pmix.wait}: Open MPI 4.1 sends BOOL true (wait for every key); the Standard an INT, the
   * number of keys to wait for, 0 meaning all of them.
   */
  private static int waitFor(Info i, int keys) throws BadRequest {
    if (i.value().type() == DataType.BOOL) {
      return Values.bool(i) ? keys : 0;
    }
    int n = Values.signed(i);
    if (n < 0) {
      throw BadRequest.param(i.key() + " is " + n);
    }
    return n == 0 ? keys : Math.min(n, keys);
  }

  /** {@code pmix.timeout}: whole seconds, 0 = none. */
  private static int timeout(Info i) throws BadRequest {
    int seconds = Values.signed(i);
    if (seconds < 0) {
      throw BadRequest.param(i.key() + " is " + seconds);
    }
    return seconds;
  }

  /** The uid and gid libpmix's server adds to what it hands its host: nothing to act on. */
  private static boolean isIdentity(Info i) {
    return i.key().equals(PmixKeys.USERID) || i.key().equals(PmixKeys.GRPID);
  }

  /** The value's packed size in the peer's format, what the store bounds. */
  private static int bytes(Exchange x, Value v) {
    return x.packer().packValue(v).size();
  }
}
