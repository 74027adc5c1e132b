resource "aws_instance" "r" {
  ami = "x"

  tag {
    key = "a"
  }

  dynamic "network_interface" {
    for_each = var.nics
    content {
      device_index = network_interface.value
    }
  }

  ebs_block_device {
    device_name = "sda"
  }

  lifecycle {
    create_before_destroy = true
    ignore_changes        = [tags]
  }

  provisioner "local-exec" {
    command = "echo base"
  }
}
