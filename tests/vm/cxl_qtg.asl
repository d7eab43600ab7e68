/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cxl_qtg.asl - the _DSM of a CXL root device (\_SB.CXLM, ACPI0017) that
 * QEMU 7.2 does not build: the QoS Throttling Group method (CXL 3.0
 * section 9.17.3, UUID f365f9a6-...).  Function 0 lists functions 0 and 1;
 * function 1 answers every performance query with max QTG 0 and the one
 * recommended QTG 0, so that the kernel gives the device's partitions a
 * qos_class (0) and matches it to the root decoder's.  Added to the
 * guest's tables by the kernel's table upgrade (cxl_tables.py).
 */
DefinitionBlock ("", "SSDT", 2, "PAGEHP", "CXLQTG", 0x00000001)
{
    External (\_SB.CXLM, DeviceObj)
    Scope (\_SB.CXLM)
    {
        Method (_DSM, 4, Serialized)
        {
            If ((Arg0 == ToUUID ("f365f9a6-a7de-4071-a66a-b40c0b4f8e52")))
            {
                If ((Arg2 == Zero))
                {
                    Return (Buffer (One) { 0x03 })
                }
                If ((Arg2 == One))
                {
                    Return (Package (0x02) { Zero, Package (One) { Zero } })
                }
            }
            Return (Buffer (One) { 0x00 })
        }
    }
}
