/**
 * The attribute dictionary: for each PMIx attribute jdvm deals with, its key string, C name and
 * aliases, its value's type in master and in libpmix 4.2.2, and a one-line description
 * (pmix-wire.md §10, §11).
 *
 * <p>Role: lookups both ways ({@link org.jdvm.pmix.dict.AttributeDictionary#byKey}, {@link
 * org.jdvm.pmix.dict.AttributeDictionary#byName}) for the server's validation and the CLI's help,
 * and the source of {@code docs/attributes.md}.
 *
 * <p>Invariants: the data is the tables in the {@code *Attributes} classes, one line per attribute;
 * keys and C names are unique; keys, names and 4.2.2 types agree with libpmix 4.2.2's own
 * dictionary and master's with the header diff (both checked by tests); the committed {@code
 * docs/attributes.md} is exactly what {@link org.jdvm.pmix.dict.AttributeDictionary#markdown()}
 * generates. Keys travel as strings; PMIx's numeric attribute ids differ between versions and never
 * appear here.
 */
package org.jdvm.pmix.dict;
