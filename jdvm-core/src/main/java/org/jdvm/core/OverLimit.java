package org.jdvm.core;

import org.jdvm.pmix.PmixStatus;

/**
 * Why a request was refused for a {@link Limits} bound, one constant per bound, in the order the
 * bounds are checked when a request meets several. Each operation checks the bounds that concern it
 * at one point of its own check order (said on its rejection enum); like every rejection, a refusal
 * changes nothing.
 */
public enum OverLimit implements Rejection {
  /** More apps than {@link Limits#appsPerSpawn()}. */
  APPS_PER_SPAWN,
  /** More processes than {@link Limits#procsPerSpawn()} (summed without overflow). */
  PROCS_PER_SPAWN,
  /** The DVM would hold more live processes than {@link Limits#liveProcs()}. */
  LIVE_PROCS,
  /** More nodes asked for, by count or by name, than {@link Limits#nodesPerRequest()}. */
  NODES_PER_REQUEST,
  /** The DVM would hold more nodes than {@link Limits#nodesInDvm()}. */
  NODES_IN_DVM,
  /** The DVM would hold more allocations than {@link Limits#liveAllocations()}. */
  LIVE_ALLOCATIONS,
  /** The requester already has {@link Limits#pendingAsksPerRequester()} asks waiting. */
  PENDING_ASKS;

  @Override
  public int status() {
    return PmixStatus.ERR_OUT_OF_RESOURCE;
  }
}
