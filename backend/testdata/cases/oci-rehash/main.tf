terraform {
  backend "oci" {
    bucket           = "tfstate"
    namespace        = "ns"
    key              = "app/terraform.tfstate"
    region           = "us-ashburn-1"
    tenancy_ocid     = "ocid1.tenancy.oc1..fake"
    user_ocid        = "ocid1.user.oc1..fake"
    fingerprint      = "00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee:ff"
    private_key_path = "key.pem"
  }
}
