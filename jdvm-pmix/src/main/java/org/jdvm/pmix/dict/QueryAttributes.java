package org.jdvm.pmix.dict;

import java.util.List;

/**
 * Keys and qualifiers of PMIx_Query_info requests (pmix-wire.md §4.5).
 *
 * <p>Data, not code: one attribute per line, "key | C name[, aliases] | type in master | type in
 * 4.2.2 (or absent) | description". Keys, names and types come from libpmix 4.2.2's dictionary and
 * the master headers (jdvm-pmix's test resources {@code wire/dict_422.json} and {@code
 * wire/attr_diff.txt}, pmix-wire.md §10–§11); the descriptions are jdvm's own. "varies" is a type
 * that depends on the use.
 */
final class QueryAttributes {
  private QueryAttributes() {}

  static final String TITLE = "Queries";

  static final List<Attribute> ALL =
      AttributeTable.parse(
          """
          pmix.qry.keys | PMIX_QUERY_SUPPORTED_KEYS | STRING | STRING | Which query keys the host supports.
          pmix.qry.ns | PMIX_QUERY_NAMESPACES | STRING | STRING | The namespaces the host knows, comma-separated.
          pmix.qry.nsinfo | PMIX_QUERY_NAMESPACE_INFO | DATA_ARRAY | DATA_ARRAY | An array of information about each known namespace.
          pmix.qry.jst | PMIX_QUERY_JOB_STATUS | STATUS | STATUS | The status of the job given as a qualifier.
          pmix.qry.qlst | PMIX_QUERY_QUEUE_LIST | STRING | STRING | The scheduler queues, comma-separated.
          pmix.qry.qst | PMIX_QUERY_QUEUE_STATUS | DATA_ARRAY | DATA_ARRAY | The status of each scheduler queue.
          pmix.qry.ptable | PMIX_QUERY_PROC_TABLE | DATA_ARRAY | DATA_ARRAY | The process table of a job: an array of proc infos.
          pmix.qry.lptable | PMIX_QUERY_LOCAL_PROC_TABLE | DATA_ARRAY | DATA_ARRAY | The process table of a job's local processes.
          pmix.qry.auths | PMIX_QUERY_AUTHORIZATIONS | DATA_ARRAY | DATA_ARRAY | What the requester is authorized to do.
          pmix.qry.spawn | PMIX_QUERY_SPAWN_SUPPORT | STRING | STRING | Which spawn attributes the host supports.
          pmix.qry.debug | PMIX_QUERY_DEBUG_SUPPORT | STRING | STRING | Which debugger attributes the host supports.
          pmix.qry.mem | PMIX_QUERY_MEMORY_USAGE | DATA_ARRAY | DATA_ARRAY | Memory usage of processes or daemons.
          pmix.query.alloc | PMIX_QUERY_ALLOC_STATUS | STRING | STRING | The status of the allocation request named as a qualifier.
          pmix.query.allc | PMIX_QUERY_ALLOCATION | DATA_ARRAY | absent | The description of an allocation.
          pmix.query.alloc.ids | PMIX_QUERY_ALLOC_IDS | DATA_ARRAY | absent | The ids of the allocations the requester may see.
          pmix.query.alloc.prop | PMIX_QUERY_ALLOC_PROPERTIES | DATA_ARRAY | absent | The properties of an allocation.
          pmix.qry.aslots | PMIX_QUERY_AVAILABLE_SLOTS | UINT32 | absent | How many slots are free.
          pmix.qry.psetnum | PMIX_QUERY_NUM_PSETS | SIZE | SIZE | How many process sets exist.
          pmix.qry.psets | PMIX_QUERY_PSET_NAMES | STRING | STRING | The names of the process sets, comma-separated.
          pmix.qry.pmems | PMIX_QUERY_PSET_MEMBERSHIP | DATA_ARRAY | DATA_ARRAY | The members of the process set given as a qualifier.
          pmix.qry.pgrpnum | PMIX_QUERY_NUM_GROUPS | SIZE | SIZE | How many process groups exist.
          pmix.qry.pgrp | PMIX_QUERY_GROUP_NAMES | DATA_ARRAY | DATA_ARRAY | The names of the process groups.
          pmix.qry.pgrpmems | PMIX_QUERY_GROUP_MEMBERSHIP | DATA_ARRAY | DATA_ARRAY | The members of the process group given as a qualifier.
          pmix.qry.attrs | PMIX_QUERY_ATTRIBUTE_SUPPORT | DATA_ARRAY | DATA_ARRAY | Which attributes the named functions support.
          pmix.qry.asrvrs | PMIX_QUERY_AVAIL_SERVERS | DATA_ARRAY | DATA_ARRAY | The servers a tool could connect to.
          pmix.qry.quals | PMIX_QUERY_QUALIFIERS | DATA_ARRAY | DATA_ARRAY | The qualifiers accompanying a query key (4.2.2 also used this key for the boolean PMIX_QUERY_SUPPORTED_QUALIFIERS).
          pmix.qry.supqual | PMIX_QUERY_SUPPORTED_QUALIFIERS | BOOL | absent | Ask which qualifiers a query key accepts; its key was pmix.qry.quals in 4.2.2.
          pmix.qry.res | PMIX_QUERY_RESULTS | DATA_ARRAY | DATA_ARRAY | The results of a query: an array of infos.
          pmix.qry.rfsh | PMIX_QUERY_REFRESH_CACHE | BOOL | BOOL | Answer from the host rather than from cached data.
          pmix.qry.local | PMIX_QUERY_LOCAL_ONLY | BOOL | BOOL | Answer from local information only.
          pmix.qry.avg | PMIX_QUERY_REPORT_AVG | BOOL | BOOL | Report averages over the processes asked about.
          pmix.qry.minmax | PMIX_QUERY_REPORT_MINMAX | BOOL | BOOL | Report minimum and maximum over the processes asked about.
          pmix.qry.stabiver | PMIX_QUERY_STABLE_ABI_VERSION | STRING | STRING | The version of the stable ABI the library implements.
          pmix.qry.prabiver | PMIX_QUERY_PROVISIONAL_ABI_VERSION | STRING | STRING | The version of the provisional ABI the library implements.
          pmix.qry.dev | PMIX_QUERY_DEVICES | DATA_ARRAY | absent | The devices of the nodes asked about.
          pmix.qry.minau | PMIX_QUERY_MIN_ALLOC_UNIT | DATA_ARRAY | absent | The minimum allocation unit of the resources asked about.
          pmix.qry.nres | PMIX_QUERY_NODE_RESOURCE_USAGE | STRING | absent | Resource usage of the named node.
          pmix.qry.pres | PMIX_QUERY_PROC_RESOURCE_USAGE | PROC | absent | Resource usage of the given process.
          pmix.qry.node | PMIX_QUERY_RESOLVE_NODE | STRING | absent | The processes of a job on the named node.
          pmix.qry.peers | PMIX_QUERY_RESOLVE_PEERS | DATA_ARRAY | absent | The peers of a process on its node.
          pmix.qry.resblks | PMIX_QUERY_RES_BLOCKS | DATA_ARRAY | absent | The defined resource blocks.
          pmix.qry.resdef | PMIX_QUERY_RES_BLOCK_DEF | DATA_ARRAY | absent | The definition of a resource block.
          pmix.client.fns | PMIX_CLIENT_FUNCTIONS | STRING | STRING | The client-side functions the library supports.
          pmix.srvr.fns | PMIX_SERVER_FUNCTIONS | STRING | STRING | The server-side functions the library supports.
          pmix.tool.fns | PMIX_TOOL_FUNCTIONS | STRING | STRING | The tool-side functions the library supports.
          pmix.host.fns | PMIX_HOST_FUNCTIONS | STRING | STRING | The functions the host environment supports.
          pmix.client.attrs | PMIX_CLIENT_ATTRIBUTES | STRING | STRING | The attributes client functions support.
          pmix.srvr.attrs | PMIX_SERVER_ATTRIBUTES | STRING | STRING | The attributes server functions support.
          pmix.host.attrs | PMIX_HOST_ATTRIBUTES | STRING | STRING | The attributes the host's functions support.
          pmix.tool.attrs | PMIX_TOOL_ATTRIBUTES | STRING | STRING | The attributes tool functions support.
          """);
}
