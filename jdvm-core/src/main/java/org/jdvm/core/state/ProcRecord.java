package org.jdvm.core.state;

import org.jdvm.core.ProcEnd;
import org.jdvm.core.ProcUsage;
import org.jdvm.core.query.ProcView;

/** One process of a job. */
public final class ProcRecord implements ProcView {
  private final Job job;
  private final int rank;
  private final Node node;
  private final int appIndex;
  long pid;
  State state = State.PLACED;
  ProcEnd end;
  ProcUsage usage;

  ProcRecord(Job job, int rank, Node node, int appIndex) {
    this.job = job;
    this.rank = rank;
    this.node = node;
    this.appIndex = appIndex;
  }

  public Job job() {
    return job;
  }

  @Override
  public int rank() {
    return rank;
  }

  @Override
  public String node() {
    return node.name();
  }

  public Node nodeRecord() {
    return node;
  }

  @Override
  public int appIndex() {
    return appIndex;
  }

  @Override
  public long pid() {
    return pid;
  }

  @Override
  public State state() {
    return state;
  }

  public boolean live() {
    return state != State.ENDED;
  }

  /** How it ended, or {@code null} while it lives. */
  public ProcEnd end() {
    return end;
  }

  @Override
  public int exitCode() {
    return end == null ? 0 : end.shellExitCode();
  }

  @Override
  public ProcUsage usage() {
    return usage;
  }
}
