/** Placeholder. */
package org.jdvm.client;
