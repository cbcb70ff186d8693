package org.jdvm.server.shell;

import static org.assertj.core.api.Assertions.assertThat;

import org.jdvm.host.LaunchException;
import org.jdvm.pmix.PmixStatus;
import org.junit.jupiter.api.Test;

/** A failed launch's status follows from its kind, never from the words of its message. */
class LaunchFailureStatusTest {

  @Test
  void aMissingExecutableIsExeNotFoundAHostAtItsLimitOutOfResourceAndEveryOtherFailedToLaunch() {
    assertThat(Shell.status(LaunchException.Kind.EXE_NOT_FOUND))
        .isEqualTo(PmixStatus.ERR_JOB_EXE_NOT_FOUND);
    assertThat(Shell.status(LaunchException.Kind.OUT_OF_RESOURCE))
        .isEqualTo(PmixStatus.ERR_OUT_OF_RESOURCE);
    for (LaunchException.Kind kind : LaunchException.Kind.values()) {
      if (kind != LaunchException.Kind.EXE_NOT_FOUND
          && kind != LaunchException.Kind.OUT_OF_RESOURCE) {
        assertThat(Shell.status(kind))
            .as("%s", kind)
            .isEqualTo(PmixStatus.ERR_JOB_FAILED_TO_LAUNCH);
      }
    }
  }
}
