package org.jdvm.pmix;

/** A typed regular expression blob ({@code pmix_regex2_t}, v61). */
public record Regex2(String type, ByteObject regex) {}
