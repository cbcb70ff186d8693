package org.jdvm.server.controller;

import java.util.List;
import org.jdvm.core.Effect;

/**
 * Executes the effects of one outcome, in order, on the controller thread. It must not block:
 * anything slow (starting processes, signalling, shrinking nodes) is handed to other threads, and
 * what they learn comes back as reports submitted to the controller.
 */
@FunctionalInterface
public interface EffectSink {
  void execute(List<Effect> effects);
}
