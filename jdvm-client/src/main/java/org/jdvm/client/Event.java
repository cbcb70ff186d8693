package org.jdvm.client;

import java.util.List;
import org.jdvm.pmix.DataRange;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.Proc;

/**
 * A PMIx event the DVM delivered: its status code, its source, and its infos (for example {@code
 * PMIX_ALLOC_TIMEOUT_WARNING} with {@code PMIX_ALLOC_ID}, {@code PMIX_ALLOC_REQ_ID} and {@code
 * PMIX_TIME_REMAINING}).
 *
 * @param range the {@code pmix_data_range_t} it was sent with ({@link DataRange#INVALID} for a code
 *     PMIx does not define)
 */
public record Event(int status, Proc source, List<Info> infos, DataRange range) {
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
