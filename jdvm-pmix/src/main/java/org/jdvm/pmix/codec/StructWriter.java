package org.jdvm.pmix.codec;

import org.jdvm.pmix.App;
import org.jdvm.pmix.Coord;
import org.jdvm.pmix.DataBuffer;
import org.jdvm.pmix.DataType;
import org.jdvm.pmix.Device;
import org.jdvm.pmix.DeviceDistance;
import org.jdvm.pmix.Endpoint;
import org.jdvm.pmix.Envar;
import org.jdvm.pmix.Geometry;
import org.jdvm.pmix.Info;
import org.jdvm.pmix.KVal;
import org.jdvm.pmix.NodePid;
import org.jdvm.pmix.PData;
import org.jdvm.pmix.PmixStatus;
import org.jdvm.pmix.ProcInfo;
import org.jdvm.pmix.Query;
import org.jdvm.pmix.RegAttr;
import org.jdvm.pmix.Regex2;
import org.jdvm.pmix.ResourceUnit;

/**
 * Writes the bodies of the structured types (pmix-wire.md §3, §4.4, §4.5), field by field in
 * libpmix's order. Nested fields are bodies, never units: no count, no tag.
 */
final class StructWriter {
  private static final long U8 = 0xFF;
  private static final long U16 = 0xFFFF;
  private static final long U32 = 0xFFFF_FFFFL;

  private final WireOutput out;
  private final BodyWriter bodies;

  StructWriter(WireOutput out, BodyWriter bodies) {
    this.out = out;
    this.bodies = bodies;
  }

  void write(DataType type, Object datum) {
    switch (type) {
      case APP -> writeApp((App) datum);
      case PDATA -> writePData((PData) datum);
      case KVAL -> writeKVal((KVal) datum);
      case QUERY -> writeQuery((Query) datum);
      case PROC_INFO -> writeProcInfo((ProcInfo) datum);
      case ENVAR -> writeEnvar((Envar) datum);
      case COORD -> writeCoord((Coord) datum);
      case REGATTR -> writeRegAttr((RegAttr) datum);
      case GEOMETRY -> writeGeometry((Geometry) datum);
      case DEVICE_DIST -> writeDeviceDistance((DeviceDistance) datum);
      case ENDPOINT -> writeEndpoint((Endpoint) datum);
      case DATA_BUFFER -> bodies.writeByteObject(((DataBuffer) datum).payload());
      case DEVICE -> writeDevice((Device) datum);
      case RESOURCE_UNIT -> writeResourceUnit((ResourceUnit) datum);
      case NODE_PID -> writeNodePid((NodePid) datum);
      case REGEX2 -> writeRegex2((Regex2) datum);
      default ->
          throw WireException.message(
              PmixStatus.ERR_UNKNOWN_DATA_TYPE, out.size(), type.pmixName() + " is not packed");
    }
  }

  /**
   * cmd, argc as INT (a historical typo kept for compatibility, same bytes as INT32), argv, envc as
   * INT32, env, cwd, maxprocs as INT, ninfo as SIZE, then the infos (§4.4).
   */
  private void writeApp(App app) {
    out.writeString(app.cmd(), -1);
    out.writeSigned(app.argv().size());
    for (String arg : app.argv()) {
      out.writeString(arg, -1);
    }
    out.writeSigned(app.env().size());
    for (String env : app.env()) {
      out.writeString(env, -1);
    }
    out.writeString(app.cwd(), -1);
    out.writeSigned(app.maxprocs());
    out.writeUnsigned(app.info().size());
    for (Info info : app.info()) {
      bodies.writeInfo(info);
    }
  }

  private void writePData(PData pdata) {
    bodies.writeProc(pdata.proc());
    bodies.writeKey(pdata.key());
    bodies.writeValue(pdata.value());
  }

  private void writeKVal(KVal kval) {
    out.writeString(kval.key(), -1);
    bodies.writeValue(kval.value());
  }

  /** nkeys as INT32, the keys, nqual as SIZE, then the qualifiers (§4.5). */
  private void writeQuery(Query query) {
    out.writeSigned(query.keys().size());
    for (String key : query.keys()) {
      out.writeString(key, -1);
    }
    out.writeUnsigned(query.qualifiers().size());
    for (Info qualifier : query.qualifiers()) {
      bodies.writeInfo(qualifier);
    }
  }

  /** proc, hostname, executable, PID, state byte; the exit code is not transmitted (§6.2). */
  private void writeProcInfo(ProcInfo info) {
    bodies.checkRange("pid", info.pid(), 0, U32);
    bodies.checkRange("state", info.state(), 0, U8);
    bodies.writeProc(info.proc());
    out.writeString(info.hostname(), -1);
    out.writeString(info.executableName(), -1);
    bodies.writePid(info.pid());
    out.writeByte(info.state());
  }

  private void writeEnvar(Envar envar) {
    out.writeString(envar.envar(), -1);
    out.writeString(envar.value(), -1);
    out.writeByte(envar.separator());
  }

  /** view byte, dims as SIZE, then each coordinate as a UINT32 varint. */
  private void writeCoord(Coord coord) {
    bodies.checkRange("coordinate view", coord.view(), 0, U8);
    for (long c : coord.coordinates()) {
      bodies.checkRange("coordinate", c, 0, U32);
    }
    out.writeByte(coord.view());
    out.writeUnsigned(coord.coordinates().size());
    for (long c : coord.coordinates()) {
      out.writeUnsigned(c);
    }
  }

  /** name, key string, type as a UINT16 varint, the description count as INT32, the lines. */
  private void writeRegAttr(RegAttr attr) {
    bodies.checkRange("data type", attr.type(), 0, U16);
    out.writeString(attr.name(), -1);
    bodies.writeKey(attr.string());
    out.writeUnsigned(attr.type());
    out.writeSigned(attr.description().size());
    for (String line : attr.description()) {
      out.writeString(line, -1);
    }
  }

  private void writeGeometry(Geometry geometry) {
    out.writeUnsigned(geometry.fabric());
    out.writeString(geometry.uuid(), -1);
    out.writeString(geometry.osname(), -1);
    out.writeUnsigned(geometry.coordinates().size());
    for (Coord coord : geometry.coordinates()) {
      writeCoord(coord);
    }
  }

  private void writeDeviceDistance(DeviceDistance d) {
    bodies.checkRange("mindist", d.minDistance(), 0, U16);
    bodies.checkRange("maxdist", d.maxDistance(), 0, U16);
    out.writeString(d.uuid(), -1);
    out.writeString(d.osname(), -1);
    out.writeUnsigned(d.deviceType());
    out.writeUnsigned(d.minDistance());
    out.writeUnsigned(d.maxDistance());
  }

  private void writeEndpoint(Endpoint endpoint) {
    out.writeString(endpoint.uuid(), -1);
    out.writeString(endpoint.osname(), -1);
    bodies.writeByteObject(endpoint.endpoint());
  }

  private void writeDevice(Device device) {
    out.writeString(device.uuid(), -1);
    out.writeString(device.osname(), -1);
    out.writeUnsigned(device.deviceType());
  }

  private void writeResourceUnit(ResourceUnit unit) {
    out.writeUnsigned(unit.deviceType());
    out.writeUnsigned(unit.count());
  }

  private void writeNodePid(NodePid nodePid) {
    bodies.checkRange("nodeid", nodePid.nodeId(), 0, U32);
    bodies.checkRange("pid", nodePid.pid(), 0, U32);
    out.writeString(nodePid.hostname(), -1);
    out.writeUnsigned(nodePid.nodeId());
    bodies.writePid(nodePid.pid());
  }

  private void writeRegex2(Regex2 regex) {
    out.writeString(regex.type(), -1);
    bodies.writeByteObject(regex.regex());
  }
}
