package org.jdvm.endpoint.serve;

import org.jdvm.endpoint.wireup.ModexStore;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.body.Checks;
import org.jdvm.pmix.body.CommitRequest;

/**
 * What the endpoint checks while a request's body is read ({@link Checks}), field by field: its
 * {@link EndpointLimits}, the keys a lookup or an unpublish may name, and what a commit may carry.
 * A request is refused for its first fault in the order of its fields, and a count past a limit
 * before the list it announces is decoded.
 */
final class RequestChecks implements Checks<BadRequest> {
  private final EndpointLimits limits;

  RequestChecks(EndpointLimits limits) {
    this.limits = limits;
  }

  /** At most {@link EndpointLimits#namespacesPerRequest} processes named. */
  @Override
  public void procs(int count) throws BadRequest {
    if (count > limits.namespacesPerRequest()) {
      throw BadRequest.outOfResource(
          count + " processes named in one request; at most " + limits.namespacesPerRequest());
    }
  }

  /** At most {@link EndpointLimits#infosPerRequest} infos in each list. */
  @Override
  public void infos(int count) throws BadRequest {
    if (count > limits.infosPerRequest()) {
      throw BadRequest.outOfResource(
          count + " infos in one request; at most " + limits.infosPerRequest());
    }
  }

  /** At most {@link EndpointLimits#infosPerRequest} keys, refused before any is read. */
  @Override
  public void keys(long count) throws BadRequest {
    if (count > limits.infosPerRequest()) {
      throw BadRequest.outOfResource(
          count + " keys in one request; at most " + limits.infosPerRequest());
    }
  }

  /** A key named is neither NULL nor empty nor longer than PMIx keeps. */
  @Override
  public void key(String key) throws BadRequest {
    if (key == null || key.isEmpty() || key.length() > Info.MAX_KEYLEN) {
      throw BadRequest.param("a key that is NULL, empty or longer than " + Info.MAX_KEYLEN);
    }
  }

  /** A commit carries no reserved key: those are the DVM's job data. */
  @Override
  public void entry(KVal k) throws BadRequest {
    if (k.key().isEmpty() || k.key().startsWith(ModexStore.RESERVED_PREFIX)) {
      throw BadRequest.param(
          "\"" + k.key() + "\" cannot be committed: reserved keys are the DVM's job data");
    }
  }

  /** A commit's sections are LOCAL, REMOTE or GLOBAL. */
  @Override
  public void scope(int scope) throws BadRequest {
    if (scope < CommitRequest.LOCAL || scope > CommitRequest.GLOBAL) {
      throw BadRequest.param("a commit's scope must be 1, 2 or 3, not " + scope);
    }
  }
}
