package org.jdvm.pmix.body;

import java.util.List;
import org.jdvm.pmix.App;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.WireFormat;
import org.jdvm.pmix.codec.Packer;
import org.jdvm.pmix.codec.Unpacker;
import org.jdvm.pmix.frame.Commands;

/**
 * SPAWNNB ({@code PMIx_Spawn}): {@code CMD 9 | SIZE n | INFO×n (the job's) | SIZE m | APP×m}.
 * Answered with a {@link SpawnReply}. (Named for its command: the Java client's {@code
 * SpawnRequest} is what a caller builds one from.)
 *
 * @param jobInfos the job's attributes
 * @param apps the applications, each with its own infos
 */
public record SpawnNbRequest(List<Info> jobInfos, List<App> apps) {
  public static final int COMMAND = Commands.SPAWNNB_CMD;

  public SpawnNbRequest {
    jobInfos = List.copyOf(jobInfos);
    apps = List.copyOf(apps);
  }

  /** The whole body, its command first. */
  public byte[] write(WireFormat format) {
    return new Packer(format).packCommand(COMMAND).packInfos(jobInfos).packApps(apps).toByteArray();
  }

  /** The body after its command ({@link Checks#infos} judges the job's infos); the rest unread. */
  public static <X extends Exception> SpawnNbRequest read(Unpacker in, Checks<X> checks) throws X {
    List<Info> jobInfos = Fields.readInfos(in, checks);
    return new SpawnNbRequest(jobInfos, in.unpackApps());
  }
}
