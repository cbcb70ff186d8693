package org.jdvm.pmix.codec;

import java.util.List;
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
import org.jdvm.pmix.Proc;
import org.jdvm.pmix.ProcInfo;
import org.jdvm.pmix.Query;
import org.jdvm.pmix.RegAttr;
import org.jdvm.pmix.Regex2;
import org.jdvm.pmix.ResourceUnit;

/**
 * Reads the bodies of the structured types, the inverse of {@link StructWriter}. Lists inside them
 * (argv, keys, qualifiers, coordinates, description lines) are counted like any other: checked
 * against the bytes left, grown as decoded.
 */
final class StructReader {
  private final WireInput in;
  private final BodyReader bodies;

  StructReader(WireInput in, BodyReader bodies) {
    this.in = in;
    this.bodies = bodies;
  }

  Object read(DataType type) {
    return switch (type) {
      case APP -> readApp();
      case PDATA -> new PData(bodies.readProc(), bodies.readKey(), bodies.readValue());
      case KVAL -> new KVal(in.readString(-1), bodies.readValue());
      case QUERY -> readQuery();
      case PROC_INFO -> readProcInfo();
      case ENVAR -> new Envar(in.readString(-1), in.readString(-1), (byte) in.readByte());
      case COORD -> readCoord();
      case REGATTR -> readRegAttr();
      case GEOMETRY -> readGeometry();
      case DEVICE_DIST -> readDeviceDistance();
      case ENDPOINT -> new Endpoint(in.readString(-1), in.readString(-1), bodies.readByteObject());
      case DATA_BUFFER -> new DataBuffer(bodies.readByteObject());
      case DEVICE ->
          new Device(in.readString(-1), in.readString(-1), in.readUnsigned(WireInput.BYTES64));
      case RESOURCE_UNIT ->
          new ResourceUnit(in.readUnsigned(WireInput.BYTES64), in.readUnsigned(WireInput.BYTES64));
      case NODE_PID ->
          new NodePid(in.readString(-1), in.readUnsigned(WireInput.BYTES32), bodies.readPid());
      case REGEX2 -> new Regex2(in.readString(-1), bodies.readByteObject());
      default ->
          throw bodies.failure(
              PmixStatus.ERR_UNKNOWN_DATA_TYPE, type.pmixName() + " is not unpacked by jdvm");
    };
  }

  /** Strings of a list (argv, env, keys, description); an entry may not be NULL. */
  private List<String> readStrings(long declared, String what) {
    int count = bodies.checkCount(declared, DataType.STRING, what);
    List<String> strings = BodyReader.listFor(count);
    for (int i = 0; i < count; i++) {
      int at = in.position();
      String s = in.readString(-1);
      if (s == null) {
        throw WireException.message(PmixStatus.ERR_UNPACK_FAILURE, at, "NULL entry in " + what);
      }
      strings.add(s);
    }
    return strings;
  }

  private List<Info> readInfos(long declared, String what) {
    int count = bodies.checkCount(declared, DataType.INFO, what);
    List<Info> infos = BodyReader.listFor(count);
    for (int i = 0; i < count; i++) {
      infos.add(bodies.readInfo());
    }
    return infos;
  }

  private App readApp() {
    String cmd = in.readString(-1);
    List<String> argv = readStrings(in.readInt32(), "argv");
    List<String> env = readStrings(in.readInt32(), "env");
    String cwd = in.readString(-1);
    int maxprocs = in.readInt32();
    List<Info> info = readInfos(in.readUnsigned(WireInput.BYTES64), "app infos");
    return new App(cmd, argv, env, cwd, maxprocs, info);
  }

  private Query readQuery() {
    List<String> keys = readStrings(in.readInt32(), "query keys");
    List<Info> qualifiers = readInfos(in.readUnsigned(WireInput.BYTES64), "qualifiers");
    return new Query(keys, qualifiers);
  }

  private ProcInfo readProcInfo() {
    Proc proc = bodies.readProc();
    String hostname = in.readString(-1);
    String executable = in.readString(-1);
    long pid = bodies.readPid();
    int state = in.readByte();
    return new ProcInfo(proc, hostname, executable, pid, 0, state);
  }

  private Coord readCoord() {
    int view = in.readByte();
    int dims = bodies.checkCount(in.readUnsigned(WireInput.BYTES64), DataType.UINT32, "dims");
    List<Long> coordinates = BodyReader.listFor(dims);
    for (int i = 0; i < dims; i++) {
      coordinates.add(in.readUnsigned(WireInput.BYTES32));
    }
    return new Coord(view, coordinates);
  }

  private RegAttr readRegAttr() {
    String name = in.readString(-1);
    String string = bodies.readKey();
    int type = (int) in.readUnsigned(WireInput.BYTES16);
    List<String> description = readStrings(in.readInt32(), "description");
    return new RegAttr(name, string, type, description);
  }

  private Geometry readGeometry() {
    long fabric = in.readUnsigned(WireInput.BYTES64);
    String uuid = in.readString(-1);
    String osname = in.readString(-1);
    int n = bodies.checkCount(in.readUnsigned(WireInput.BYTES64), DataType.COORD, "coordinates");
    List<Coord> coordinates = BodyReader.listFor(n);
    for (int i = 0; i < n; i++) {
      coordinates.add(readCoord());
    }
    return new Geometry(fabric, uuid, osname, coordinates);
  }

  private DeviceDistance readDeviceDistance() {
    String uuid = in.readString(-1);
    String osname = in.readString(-1);
    long type = in.readUnsigned(WireInput.BYTES64);
    int min = (int) in.readUnsigned(WireInput.BYTES16);
    int max = (int) in.readUnsigned(WireInput.BYTES16);
    return new DeviceDistance(uuid, osname, type, min, max);
  }
}
