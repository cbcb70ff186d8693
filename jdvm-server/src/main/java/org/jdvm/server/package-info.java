/** Placeholder. */
package org.jdvm.server;
