# This file is maintained automatically by "tofu init".
# Manual edits may be lost in future updates.

provider "registry.opentofu.org/hashicorp/random" {
  version     = "3.6.0"
  constraints = ">= 3.0.0, < 4.0.0"
  hashes = [
    "h1:2nOtAU66hMpMUjtx4gAw0teyxtZaZnZmbYc4uZ8Taco=",
    "h1:6HzuhLgE8hJwV3O+W+kEW6UcYMtCeAZFiVCOP4Jt4NI=",
    "h1:Rk89ZBK5tg43lFcqWGMdGmofYV7o5VrsJizCE3SUls8=",
    "h1:c4U11HoSpD3SmI3XTsr1tlLen+hWv5zaswyHCEdr5qc=",
  ]
}
