package org.jdvm.pmix.dict;

import java.util.List;

/**
 * Allocation requests: what to allocate, for whom, and what becomes of it
 * (rfc0005-allocation-api.txt "Description", spec §8.2.1.4, prrte-behavior.md §5.3).
 *
 * <p>Data, not code: one attribute per line, "key | C name[, aliases] | type in master | type in
 * 4.2.2 (or absent) | description". Keys, names and types come from libpmix 4.2.2's dictionary and
 * the master headers (jdvm-pmix's test resources {@code wire/dict_422.json} and {@code
 * wire/attr_diff.txt}, pmix-wire.md §10–§11); the descriptions are jdvm's own. "varies" is a type
 * that depends on the use.
 */
final class AllocationAttributes {
  private AllocationAttributes() {}

  static final String TITLE = "Allocation";

  static final List<Attribute> ALL =
      AttributeTable.parse(
          """
          pmix.alloc.reqid | PMIX_ALLOC_REQ_ID | STRING | STRING | The requester's own name for an allocation request, by which it can later extend, release, cancel or query it.
          pmix.alloc.id | PMIX_ALLOC_ID | STRING | STRING | The identifier the host assigns to a granted allocation; returned in the reply and used to name it afterwards.
          pmix.alloc.nnodes | PMIX_ALLOC_NUM_NODES | UINT64 | UINT64 | How many nodes the request asks for.
          pmix.alloc.nlist | PMIX_ALLOC_NODE_LIST | STRING | STRING | The specific nodes wanted, as a comma-separated list or a regular expression of host names.
          pmix.alloc.ncpus | PMIX_ALLOC_NUM_CPUS | UINT64 | UINT64 | How many CPUs the request asks for in total.
          pmix.alloc.ncpulist | PMIX_ALLOC_NUM_CPU_LIST | STRING | STRING | How many CPUs to take on each node, as a list matching the node list.
          pmix.alloc.cpulist | PMIX_ALLOC_CPU_LIST | STRING | STRING | The specific CPUs wanted, as a list or regular expression.
          pmix.alloc.msize | PMIX_ALLOC_MEM_SIZE | FLOAT | FLOAT | Memory wanted, in megabytes.
          pmix.alloc.net | PMIX_ALLOC_FABRIC, PMIX_ALLOC_NETWORK | DATA_ARRAY | DATA_ARRAY | An array of infos describing the fabric resources wanted; applies to every node unless nested under the nodes it concerns.
          pmix.alloc.netid | PMIX_ALLOC_FABRIC_ID, PMIX_ALLOC_NETWORK_ID | STRING | STRING | The name of the fabric a fabric request refers to.
          pmix.alloc.bw | PMIX_ALLOC_BANDWIDTH | FLOAT | FLOAT | Fabric bandwidth wanted, in megabits per second.
          pmix.alloc.netqos | PMIX_ALLOC_FABRIC_QOS, PMIX_ALLOC_NETWORK_QOS | STRING | STRING | The quality-of-service level wanted on the fabric.
          pmix.alloc.nettype | PMIX_ALLOC_FABRIC_TYPE, PMIX_ALLOC_NETWORK_TYPE | STRING | STRING | The kind of fabric wanted.
          pmix.alloc.netplane | PMIX_ALLOC_FABRIC_PLANE, PMIX_ALLOC_NETWORK_PLANE | STRING | STRING | The fabric plane to allocate from.
          pmix.alloc.endpts | PMIX_ALLOC_FABRIC_ENDPTS, PMIX_ALLOC_NETWORK_ENDPTS | SIZE | SIZE | How many fabric endpoints to allocate for each process.
          pmix.alloc.endpts.nd | PMIX_ALLOC_FABRIC_ENDPTS_NODE, PMIX_ALLOC_NETWORK_ENDPTS_NODE | SIZE | SIZE | How many fabric endpoints to allocate on each node.
          pmix.alloc.nsec | PMIX_ALLOC_FABRIC_SEC_KEY, PMIX_ALLOC_NETWORK_SEC_KEY | BYTE_OBJECT | BYTE_OBJECT | A security key for the allocated fabric resources.
          pmix.alloc.time | PMIX_ALLOC_TIME | STRING | UINT32 | How long the allocation is wanted: a duration string read from the right as S, M:S, H:M:S, D:H:M:S in master; seconds as a uint32 in 4.2.2.
          pmix.alloc.queue | PMIX_ALLOC_QUEUE | STRING | STRING | The scheduler queue the request should go to.
          pmix.alloc.share | PMIX_ALLOC_SHARE | BOOL | absent | True leaves the granted nodes unreserved from the start, usable by the whole session; false or absent reserves them to the owning namespace.
          pmix.alloc.inhrt | PMIX_ALLOC_INHERITANCE | ALLOC_INHERIT | absent | What becomes of the allocation when its owning namespace terminates: NONE, CHILD, DEFAULT or CHILD_DEFAULT; absent means DEFAULT.
          pmix.alloc.tgt | PMIX_ALLOC_TARGET | STRING | absent | The namespace the granted nodes are reserved to, when it is not the requester's own; that namespace becomes the owner.
          pmix.alloc.wtmo | PMIX_ALLOC_WARN_TIMEOUT | UINT32 | absent | Seconds before the allocation expires at which the requester wants a PMIX_ALLOC_TIMEOUT_WARNING event; advisory.
          pmix.alloc.status | PMIX_ALLOC_STATUS | STATUS | absent | The state of an allocation request, as a status code, in replies and query results.
          pmix.alloc.notwait | PMIX_ALLOC_NOT_WAITING | BOOL | absent | The requester will not wait for the resources: queue the request and answer at once.
          pmix.alloc.sep | PMIX_ALLOC_CHILD_SEP | BOOL | absent | Give the new allocation a session separate from the requester's, so ending the parent session does not end it.
          pmix.alloc.lend | PMIX_ALLOC_LEND | STRING | absent | On a release, lend the nodes to the scheduler for this long with a claim to get them back (REAQUIRE).
          pmix.alloc.releasable | PMIX_ALLOC_RELEASABLE | BOOL | absent | The scheduler may ask for these resources back before the allocation ends.
          pmix.alloc.exclude | PMIX_ALLOC_EXCLUDE | STRING | absent | Nodes that must not be part of the allocation.
          pmix.alloc.property | PMIX_ALLOC_PROPERTY | STRING | absent | A node property (feature) every allocated node must have.
          pmix.alloc.begin | PMIX_ALLOC_BEGIN | STRING | absent | The earliest time the allocation may start.
          pmix.alloc.depend | PMIX_ALLOC_DEPENDENCY | STRING | absent | Allocation requests that must be satisfied before this one may start.
          pmix.alloc.image | PMIX_ALLOC_IMAGE | STRING | absent | The operating-system image to provision on the allocated nodes.
          pmix.alloc.mau | PMIX_ALLOC_MAU | DATA_ARRAY | absent | The minimum allocation unit: resources that can only be allocated together.
          pmix.alloc.noshell | PMIX_ALLOC_NOSHELL | BOOL | absent | Make the allocation without starting a shell on it.
          pmix.alloc.nblks | PMIX_ALLOC_NUM_BLOCKS | UINT64 | absent | How many resource blocks the request asks for.
          pmix.alloc.preempt | PMIX_ALLOC_PREEMPTIBLE | BOOL | absent | The allocation may be preempted by the scheduler.
          pmix.alloc.blk | PMIX_ALLOC_RES_BLOCK | STRING | absent | The resource block to allocate from.
          pmix.alloc.waitall | PMIX_ALLOC_WAIT_ALL_NODES | BOOL | absent | Start the allocation only when every node in it is ready.
          pmix.alloc.mkind | PMIX_MEM_ALLOC_KIND | STRING | absent | The kind of memory the allocation should provide.
          """);
}
