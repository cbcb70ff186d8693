package org.jdvm.pmix;

/**
 * PMIx data types with their numeric codes ({@code pmix_data_type_t}), as in pmix-wire.md §5.
 *
 * <p>The codes are the wire values: a type tag is packed as a UINT16 varint, so every code below
 * 128 is one byte. Which wire component may carry a type is {@link WireComponent#supports}.
 */
public enum DataType {
  UNDEF(0),
  BOOL(1),
  BYTE(2),
  STRING(3),
  SIZE(4),
  PID(5),
  INT(6),
  INT8(7),
  INT16(8),
  INT32(9),
  INT64(10),
  UINT(11),
  UINT8(12),
  UINT16(13),
  UINT32(14),
  UINT64(15),
  FLOAT(16),
  DOUBLE(17),
  TIMEVAL(18),
  TIME(19),
  STATUS(20),
  VALUE(21),
  PROC(22),
  APP(23),
  INFO(24),
  PDATA(25),
  /** Deprecated {@code PMIX_BUFFER}: registered by every component, never valid inside a value. */
  BUFFER(26),
  BYTE_OBJECT(27),
  KVAL(28),
  PERSIST(30),
  POINTER(31),
  SCOPE(32),
  DATA_RANGE(33),
  COMMAND(34),
  INFO_DIRECTIVES(35),
  DATA_TYPE(36),
  PROC_STATE(37),
  PROC_INFO(38),
  DATA_ARRAY(39),
  PROC_RANK(40),
  QUERY(41),
  /** Deprecated: zlib output in byte-object layout; decoded into a STRING, never sent. */
  COMPRESSED_STRING(42),
  ALLOC_DIRECTIVE(43),
  IOF_CHANNEL(45),
  ENVAR(46),
  COORD(47),
  REGATTR(48),
  /** Deprecated preg blob; its layout is ambiguous, so jdvm neither sends nor accepts it. */
  REGEX(49),
  JOB_STATE(50),
  LINK_STATE(51),
  PROC_CPUSET(52),
  GEOMETRY(53),
  DEVICE_DIST(54),
  ENDPOINT(55),
  TOPO(56),
  DEVTYPE(57),
  LOCTYPE(58),
  COMPRESSED_BYTE_OBJECT(59),
  PROC_NSPACE(60),
  /** 4.2.2-only statistics structs (61–64): removed upstream, never sent or accepted. */
  PROC_STATS(61),
  DISK_STATS(62),
  NET_STATS(63),
  NODE_STATS(64),
  DATA_BUFFER(65),
  STOR_MEDIUM(66),
  STOR_ACCESS(67),
  STOR_PERSIST(68),
  STOR_ACCESS_TYPE(69),
  DEVICE(70),
  RESBLOCK_DIRECTIVE(71),
  RESOURCE_UNIT(72),
  NODE_PID(73),
  REGEX2(74),
  /** {@code pmix_alloc_inheritance_t}: one byte, registered only by the {@code v61} component. */
  ALLOC_INHERIT(75);

  private static final DataType[] BY_CODE = new DataType[76];

  static {
    for (DataType t : values()) {
      BY_CODE[t.code] = t;
    }
  }

  private final int code;

  DataType(int code) {
    this.code = code;
  }

  /** The numeric code carried on the wire. */
  public int code() {
    return code;
  }

  /** The C macro name, e.g. {@code PMIX_UINT32}. */
  public String pmixName() {
    return "PMIX_" + name();
  }

  /** The type with this code, or {@code null} if PMIx defines none (29, 44, or above 75). */
  public static DataType fromCode(int code) {
    return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
  }

  /**
   * The type with this name, with or without the {@code PMIX_} prefix, or {@code null}.
   *
   * @param name e.g. {@code "PMIX_INFO"} or {@code "INFO"}; case-sensitive
   */
  public static DataType fromName(String name) {
    String bare = name.startsWith("PMIX_") ? name.substring(5) : name;
    for (DataType t : values()) {
      if (t.name().equals(bare)) {
        return t;
      }
    }
    return null;
  }
}
