package org.jdvm.client;

import java.util.List;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.Proc;

/**
 * A PMIx event the DVM delivered: its status code, its source, and its infos (for example {@code
 * PMIX_ALLOC_TIMEOUT_WARNING} with {@code PMIX_ALLOC_ID}, {@code PMIX_ALLOC_REQ_ID} and {@code
 * PMIX_TIME_REMAINING}).
 *
 * @param range the {@code pmix_data_range_t} it was sent with
 */
public record Event(int status, Proc source, List<Info> infos, int range) {
  /** {@code PMIX_RANGE_NAMESPACE}: every process of the sender's job. */
  public static final int RANGE_NAMESPACE = 3;

  /** {@code PMIX_RANGE_SESSION}. */
  public static final int RANGE_SESSION = 4;

  /** {@code PMIX_RANGE_GLOBAL}: everyone. */
  public static final int RANGE_GLOBAL = 5;

  /** {@code PMIX_RANGE_CUSTOM}: the processes named by {@code PMIX_EVENT_CUSTOM_RANGE}. */
  public static final int RANGE_CUSTOM = 6;

  public Event {
    infos = List.copyOf(infos);
  }

  /** The value of an info as text, or {@code null} if the event does not carry it. */
  public String info(String key) {
    for (Info i : infos) {
      if (i.key().equals(key)) {
        Object d = i.value().data();
        return d == null ? null : String.valueOf(d);
      }
    }
    return null;
  }
}
